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

Only lambdas are read here; a branch named by a `def` is left as any function handed to a
call is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.key_library_calls import last_name
from optlint.analysis.key_transformed_bodies import lambda_flow
from optlint.analysis.prng_keys import Consumption

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView

# Where each call takes its branches: `cond(pred, true_fun, false_fun, *operands)`,
# `switch(index, branches, *operands)` (a sequence of functions).
_BRANCHES: dict[str, tuple[tuple[int, str], ...]] = {
    "jax.lax.cond": ((1, "true_fun"), (2, "false_fun")),
    "jax.lax.switch": ((1, "branches"),),
}
_LAST_NAMES = frozenset(name.rsplit(".", 1)[1] for name in _BRANCHES)


def branch_draws(calls: KeyCallsView, call: cst.Call) -> list[list[Consumption]] | None:
    """For a `cond` or `switch` whose branches are all lambdas: what each branch draws from
    keys it does not bind (its enclosing scope's), one list per branch; None otherwise."""
    if last_name(call.func) not in _LAST_NAMES:  # the cheap test first: asked of every call
        return None
    places = _BRANCHES.get(calls.ctx.qualify(call.func) or "")
    if places is None:
        return None
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
    if not all(isinstance(branch, cst.Lambda) for branch in branches):
        return None
    return [[use for use in lambda_flow(calls, branch).free_consumed().values()
             if not use.repeated and use.kind != "fold"]
            for branch in branches if isinstance(branch, cst.Lambda)]
