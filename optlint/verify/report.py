"""Verify output: text (one block per finding) and JSON."""

from __future__ import annotations

import json
from typing import Any

from optlint.report.text import location
from optlint.verify.verdict import Verdict, describe


def environment_line(environment: dict[str, Any] | None) -> str:
    if not environment:
        return "environment unknown"
    versions = environment["versions"]
    return (f"{environment['backend']} {environment['device']}; jax {versions['jax']}, "
            f"optax {versions['optax']}, equinox {versions['equinox']}")


def render_text(verdicts: list[Verdict]) -> str:
    lines = []
    for v in verdicts:
        d = v.diagnostic
        notes = "".join(f" ({note})" for note in v.notes)
        lines.append(f"{location(d)}: {d.code} {v.verdict}{notes}: {v.reason}")
        lines.append(f"    original: {describe(v.original)}")
        if d.fix is not None:
            lines.append(f"    fixed:    {describe(v.fixed)}")
        else:  # the verdict is then about the hazard alone
            lines.append("    fixed:    no automatic fix for this finding")
        lines.append(f"    {environment_line(v.environment)}; {v.seconds:.2f} s")
    return "".join(line + "\n" for line in lines)


def _outcome(outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    if outcome is None:
        return None
    error = outcome.get("error")
    return {"status": outcome["status"], "exception": error[0] if error else None,
            "message": error[1] if error else None, "detail": outcome.get("detail"),
            "seconds": outcome.get("seconds")}


def render_json(verdicts: list[Verdict]) -> str:
    rows = []
    for v in verdicts:
        d = v.diagnostic
        env = v.environment or {}
        rows.append({"filename": d.filename, "cell": d.cell, "line": d.line, "column": d.column,
                     "code": d.code,
                     "verdict": v.verdict, "reason": v.reason, "notes": v.notes,
                     "stand_in_model": v.standin, "original": _outcome(v.original),
                     "fixed": _outcome(v.fixed), "backend": env.get("backend"),
                     "device": env.get("device"), "versions": env.get("versions"),
                     "seconds": round(v.seconds, 3)})
    return json.dumps(rows, indent=2) + "\n"


FORMATS = {"text": render_text, "json": render_json}
