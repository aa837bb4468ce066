"""The harness program: the runtime checks (checks.py, as text) plus one file's spec.

The linter never imports checks.py: it runs JAX. The program is self-contained so that `--python`
can point at an interpreter that has jax, optax and equinox but not optlint.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

_CHECKS = Path(__file__).with_name("checks.py")


def program(filename: str, findings: list[dict[str, Any]], device: str) -> str:
    spec = {"file": filename, "device": device, "findings": findings}
    return (_CHECKS.read_text(encoding="utf-8")
            + f"\n\nif __name__ == '__main__':\n    main(json.loads({json.dumps(spec)!r}))\n")
