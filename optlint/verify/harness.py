"""The harness program: the runtime checks (checks.py, as text) plus one file's spec.

The linter never imports checks.py: it runs JAX. The program is self-contained so that `--python`
can point at an interpreter that has jax, optax and equinox but not optlint: the spec carries the
text of the probe modules (optlint/verify/probes/) its findings' rules declare.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

_CHECKS = Path(__file__).with_name("checks.py")
_PROBES = Path(__file__).with_name("probes")
# The probe's import of checks.py's helpers: in the harness they are already its globals.
_CHECKS_IMPORT = re.compile(r"^from optlint\.verify\.checks import (\([^)]*\)|[^\n]*)\n",
                            flags=re.MULTILINE)


def probe_source(module: str) -> str:
    return _CHECKS_IMPORT.sub("", (_PROBES / f"{module}.py").read_text(encoding="utf-8"))


def program(filename: str, findings: list[dict[str, Any]], device: str) -> str:
    modules = sorted({f["probe"].split(":")[0] for f in findings if f.get("probe")})
    spec = {"file": filename, "device": device, "findings": findings,
            "probes": {module: probe_source(module) for module in modules}}
    return (_CHECKS.read_text(encoding="utf-8")
            + f"\n\nif __name__ == '__main__':\n    main(json.loads({json.dumps(spec)!r}))\n")
