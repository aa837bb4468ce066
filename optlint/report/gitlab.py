"""GitLab Code Quality: a JSON array GitLab shows on merge requests. The fingerprint stays the
same while the finding does (file, code, message and the how-manyth such finding in the file),
so a finding that only moved lines is not reported as new. The description ends with the fix
title, `; help: ...`."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

from optlint.diagnostics import Diagnostic


def render(diagnostics: list[Diagnostic]) -> str:
    seen: Counter[tuple[str, str, str]] = Counter()
    records: list[dict[str, Any]] = []
    for d in diagnostics:
        key = (d.filename, d.code, d.message)
        seen[key] += 1
        identity = "\0".join([*key, str(seen[key])]).encode("utf-8", "surrogateescape")
        fingerprint = hashlib.sha256(identity).hexdigest()
        cell = f" (cell {d.cell})" if d.cell is not None else ""
        records.append({
            "description": f"{d.code} {d.message}{cell}" + (
                f"; help: {d.fix_title}" if d.fix_title is not None else ""),
            "check_name": d.code,
            "fingerprint": fingerprint,
            "severity": "major",
            "location": {"path": d.filename, "lines": {"begin": d.line, "end": d.end.line}},
        })
    return json.dumps(records, indent=2) + "\n"
