"""One verdict per finding, from the outcomes of the original and the fixed run."""

from __future__ import annotations

from typing import Any

from optlint.diagnostics import Diagnostic
from optlint.records import record

CONFIRMED, FIX_FAILED, NOT_REPRODUCED = "confirmed", "fix-failed", "not-reproduced"
UNVERIFIABLE, TIMEOUT = "unverifiable", "timeout"
_BAD = ("failed", "misbehaved")


@record(frozen=False)
class Verdict:
    diagnostic: Diagnostic
    verdict: str
    reason: str
    original: dict[str, Any] | None
    fixed: dict[str, Any] | None
    environment: dict[str, Any] | None
    seconds: float
    notes: list[str]

    @property
    def standin(self) -> bool:
        return any("stand-in" in note for note in self.notes)


def describe(outcome: dict[str, Any] | None) -> str:
    if outcome is None:
        return "not run"
    status = outcome["status"]
    if status == "failed":
        kind, message = outcome["error"]
        return f"raises {kind}: {message}" if message else f"raises {kind}"
    if status == "misbehaved":
        return f"misbehaves: {outcome['detail']}"
    if status == "unbuildable":
        return f"cannot be built: {outcome['detail']}"
    return f"runs ({outcome['detail']})"


def decide(original: dict[str, Any] | None, fixed: dict[str, Any] | None, has_fix: bool,
           timed_out: bool, crash: str | None, standins: bool = False) -> tuple[str, str]:
    """(verdict, reason). `standins`: the harness ran stand-ins for values it could not build
    from the file (the model, the params), which may fail for reasons of their own."""
    if original is None:
        if timed_out:
            return TIMEOUT, "the harness ran past --timeout and was killed"
        return UNVERIFIABLE, f"the harness {crash}" if crash else "the harness gave no result"
    if original["status"] == "unbuildable":
        return UNVERIFIABLE, original["detail"]
    bad = original["status"] in _BAD
    if has_fix and fixed is not None and fixed["status"] == "unbuildable":
        # Not a failing fix: the harness could not build what the fixed code needs.
        if bad:
            return CONFIRMED, (f"the original {describe(original)} (the fixed code could not be "
                               f"built: {fixed['detail']})")
        return UNVERIFIABLE, f"the fixed code {describe(fixed)}"
    if has_fix and fixed is not None and fixed["status"] != "ok":
        if standins and bad and _same_outcome(original, fixed):
            # Both fail the same way on stand-ins: what fails may be the stand-in (params of
            # another structure than the mask's), so the fix is neither proven nor refuted.
            return UNVERIFIABLE, (f"the original and the fixed code both {describe(fixed)}: "
                                  f"not the failure the finding names")
        return FIX_FAILED, f"the fixed code {describe(fixed)}"
    if bad:
        return CONFIRMED, f"the original {describe(original)}"
    return NOT_REPRODUCED, "the original runs and behaves on these versions"


def _same_outcome(original: dict[str, Any], fixed: dict[str, Any]) -> bool:
    return (original["status"] == fixed["status"]
            and original.get("error") == fixed.get("error")
            and original.get("detail") == fixed.get("detail"))
