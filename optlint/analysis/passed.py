"""What a call passes at a position or keyword, through a `*args` whose items are known.

`jax.tree_util.tree_map(f, *trees)` passes `trees`' first item as the tree: a literal list gives
its items by position; a comprehension's list (`[eqx.filter(m, eqx.is_array) for m in models]`)
gives its one item at every position it covers, when no positional argument follows it.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.values import UNKNOWN, SequenceOf, SequenceValue, Value


def passed_value(call: cst.Call, position: int | None, keyword: str | None,
                 evaluate: Callable[[cst.BaseExpression], Value]) -> Value:
    """The value `call` passes at `position` or as `keyword`; UNKNOWN when it cannot be told."""
    arg = argument(call, position, keyword)
    if arg is not None:
        return evaluate(arg.value)
    unpacked = _unpacked(call, position) if position is not None else None
    if unpacked is None:
        return UNKNOWN
    starred, index, last = unpacked
    sequence = evaluate(starred)
    if isinstance(sequence, SequenceValue):
        return sequence.items[index] if index < len(sequence.items) else UNKNOWN
    if isinstance(sequence, SequenceOf) and last:
        return sequence.item
    return UNKNOWN


def _unpacked(call: cst.Call, position: int) -> tuple[cst.BaseExpression, int, bool] | None:
    """For a position at or after the first `*args`: the starred expression, the index into it,
    and whether no positional argument follows it."""
    before = 0
    for number, arg in enumerate(call.args):
        if arg.star == "*":
            if position < before:
                return None
            rest = call.args[number + 1:]
            last = not any(other.keyword is None and other.star != "**" for other in rest)
            return arg.value, position - before, last
        if arg.keyword is None and not arg.star:
            before += 1
    return None
