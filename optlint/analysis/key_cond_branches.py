"""The branches of `jax.lax.cond` and `jax.lax.switch`: functions the call runs one of, written
where the call is (`lax.cond(found, lambda: jax.random.choice(key, cells), lambda: pos)`).

A branch drawing from a key of the enclosing scope consumes it as a branch of an `if` does: on
the path that takes it. So `KeyFlow` walks a `cond` as it walks `a if test else b`, the keys
each branch draws from consumed on that branch only. A body run once per row of a `vmap` or
step of a `scan` draws from such a key in every row or step the branch runs in; under `vmap`
with a predicate read from the rows, `cond` becomes a select and every row runs both branches
(jax 0.10.2: `vmap` of `cond(x > 0, lambda: normal(key), lambda: x)` gave the same number in
every row whose `x > 0`, and rows given keys of their own drew apart; `switch` alike:
tests/test_prng_keys_cond_branches.py runs it). The values are the evidence here:
`jax_debug_key_reuse` raises on a vmapped `cond` with one drawing branch even when every row has
a key of its own.

Branches are lambdas, or functions of the file named by the call (summarised as when called);
a branch the analysis cannot name leaves the whole call as any call handing on functions is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.key_cond_operands import branch_function, operand_draws, operands
from optlint.analysis.key_library_calls import last_name
from optlint.analysis.key_transformed_bodies import lambda_flow
from optlint.analysis.prng_keys import Consumption

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView
    from optlint.context import RuleContext

# Where each call takes its branches: `cond(pred, true_fun, false_fun, *operands)`,
# `switch(index, branches, *operands)` (a sequence of functions).
_BRANCHES: dict[str, tuple[tuple[int, str], ...]] = {
    "jax.lax.cond": ((1, "true_fun"), (2, "false_fun")),
    "jax.lax.switch": ((1, "branches"),),
}
_LAST_NAMES = frozenset(name.rsplit(".", 1)[1] for name in _BRANCHES)


def branch_draws(calls: KeyCallsView, call: cst.Call) -> list[list[Consumption]] | None:
    """For a `cond` or `switch` whose branches are all lambdas or functions of the file: what
    each branch draws from keys it does not bind (its enclosing scope's) and from the keys its
    operands hold (`key_cond_operands.py`), one list per branch; None otherwise."""
    if not branching(calls.ctx, call):  # the cheap test first: asked of every call
        return None
    places = _BRANCHES[calls.ctx.qualify(call.func) or ""]
    branches: list[cst.BaseExpression] = []
    for position, keyword in places:
        given = argument(call, position, keyword)
        if given is None:
            return None
        value = given.value
        if isinstance(value, (cst.List, cst.Tuple)):
            branches += [element.value for element in value.elements]
        else:
            branches.append(value)
    functions = [branch if isinstance(branch, cst.Lambda) else
                 branch_function(calls, call, branch) for branch in branches]
    handed = operands(call, places[-1][0] + 1)
    drawn: list[list[Consumption]] = []
    for function in functions:
        flow = (None if function is None else lambda_flow(calls, function)
                if isinstance(function, cst.Lambda) else calls.summary(function))
        if function is None or flow is None:
            return None
        closed = (isinstance(function, cst.Lambda) or calls.nested(function))
        drawn.append([*(use for use in (flow.free_consumed().values() if closed else ())
                        if not use.repeated and use.kind != "fold"),
                      *operand_draws(calls, call, function, flow, handed)])
    return drawn


def branching(ctx: RuleContext, call: cst.Call) -> bool:
    """`call` is a `jax.lax.cond` or `jax.lax.switch`."""
    return (last_name(call.func) in _LAST_NAMES
            and (ctx.qualify(call.func) or "") in _BRANCHES)
