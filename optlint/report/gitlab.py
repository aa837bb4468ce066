"""GitLab Code Quality: a JSON array GitLab shows on merge requests. The fingerprint stays the
same while the finding does (file, code, message and the how-manyth such finding in the file),
so a finding that only moved lines is not reported as new. The description ends with the fix
title, `; help: ...`."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from optlint.diagnostics import Diagnostic, NotChecked


def render(diagnostics: list[Diagnostic], not_checked: Sequence[NotChecked] = ()) -> str:
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
            "location": {"path": _path(d.filename), "lines": {
                "begin": d.line if d.file_line is None else d.file_line,
                "end": d.end.line if d.file_end_line is None else d.file_end_line}},
        })
    for item in not_checked:
        records.append({
            "description": item.reason,
            "check_name": "not-checked",
            "fingerprint": hashlib.sha256(f"not-checked\0{item.filename}".encode(
                "utf-8", "surrogateescape")).hexdigest(),
            "severity": "blocker",
            "location": {"path": _path(item.filename), "lines": {"begin": 1, "end": 1}},
        })
    return json.dumps(records, indent=2) + "\n"


def _path(filename: str) -> str:
    """GitLab places findings by paths relative to the repository (`CI_PROJECT_DIR` in a job);
    optlint's are relative to the folder it ran in, which may be below it."""
    root = os.environ.get("CI_PROJECT_DIR")
    if not root:
        return filename
    try:
        return Path(filename).resolve().relative_to(Path(root).resolve()).as_posix()
    except (ValueError, OSError):
        return filename
