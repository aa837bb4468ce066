"""Wording shared by the rules' messages."""

from __future__ import annotations

from optlint.analysis.values import ModuleValue


def leaves_phrase(module: ModuleValue) -> str:
    """'holds non-array leaves (eqx.nn.MLP holds functions)' and the like."""
    reason = f" ({module.leaves.reason})" if module.leaves.reason else ""
    if module.leaves.kind == "callable":
        return f"holds non-array leaves{reason}"
    if module.leaves.kind == "scalar":
        return f"holds Python scalar leaves{reason}"
    return "may hold non-array leaves (its fields could not all be resolved)"
