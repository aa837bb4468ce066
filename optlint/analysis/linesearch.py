"""Whether an Optax optimizer runs a line search (and so calls `value_fn(params)` in `update`)."""

from __future__ import annotations

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.optax_table import behaviour
from optlint.analysis.values import OneOf, TransformValue, Value


def linesearch_part(optimizer: Value) -> TransformValue | None:
    """The L-BFGS or line-search transformation inside `optimizer`, outermost first; for a
    parameter the calls of its function fill with several optimizers, the first one's that has
    one (that call runs it)."""
    if isinstance(optimizer, OneOf) and optimizer.by_caller:
        found = (linesearch_part(option) for option in optimizer.options)
        return next((part for part in found if part is not None), None)
    if not isinstance(optimizer, TransformValue):
        return None
    return next((part for part in optimizer.walk() if _needs_value_fn(part.name)), None)


def _needs_value_fn(name: str) -> bool:
    row = behaviour(name)
    return row is not None and "value_fn" in row.update_requires


def runs_linesearch(part: TransformValue) -> bool:
    """False only for `optax.lbfgs(..., linesearch=None)`, whose `update` needs no `value_fn`."""
    if part.name != "optax.lbfgs" or part.call is None:
        return True
    chosen = argument(part.call, 3, "linesearch")
    return not (chosen is not None and isinstance(chosen.value, cst.Name)
                and chosen.value.value == "None")
