"""The operands of `jax.lax.cond` and `jax.lax.switch`: the arguments the call hands the branch it
runs (`lax.cond(done, lambda c: c, take_step, carry)` runs `take_step(carry)`, jax-aht 13dd40d).
A branch drawing from a key parameter, or from a key item of a tuple parameter it unpacks
(`t, rng = c`), draws from the key the call gives there, on the path that takes that branch
(`key_cond_branches.py` walks the branches as an `if`'s). Branches are lambdas written in place
or functions of the file (`take_step`, a `def` nested beside the call).

JAX's key-reuse checker takes a key given to `cond` as consumed when any branch consumes it,
whichever branch runs (jax 0.10.2, eager and jitted, predicate True and False, also through a
tuple operand: tests/test_prng_keys_cond_operands.py runs it). OPT020 proves a reuse only where
every branch draws, as for an `if`; a key one branch draws from counts for a body's summary (a
`scan` step drawing from its carry on some path), as any branch does."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_carried_in import init_part
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.prng_keys import Consumption
from optlint.analysis.values import FunctionValue

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView


def branch_function(calls: KeyCallsView, call: cst.Call, branch: cst.BaseExpression
                    ) -> cst.FunctionDef | None:
    """The function of the file a branch names (`take_step`), if any."""
    site = calls.sites.get(id(call))
    if site is None or not isinstance(branch, (cst.Name, cst.Attribute)):
        return None
    value = calls.ctx.value(branch, site)
    if (isinstance(value, FunctionValue) and isinstance(value.node, cst.FunctionDef)
            and value.node in calls.ctx.index.functions and not value.bound):
        return value.node
    return None


def operands(call: cst.Call, first: int) -> list[cst.BaseExpression]:
    """The operands given from position `first` on (the old single `operand=` keyword too),
    up to a starred argument (what it spreads is not known)."""
    given: list[cst.BaseExpression] = []
    for position, arg in enumerate(call.args):
        if arg.star:
            break
        named = arg.keyword.value if arg.keyword is not None else None
        if (named is None and position >= first) or named == "operand":
            given.append(arg.value)
    return given


def operand_draws(calls: KeyCallsView, call: cst.Call, branch: cst.Lambda | cst.FunctionDef,
                  flow: KeyFlow, given: list[cst.BaseExpression]) -> list[Consumption]:
    """What `branch` (its walk `flow`) draws from the keys the operands `given` hold, as the
    consumptions of `call`."""
    params = [*branch.params.posonly_params, *branch.params.params]
    how = calls.callee(call)
    uses = []
    # A branch taking fewer parameters than it is given fails when called; more, defaults.
    for param, operand in zip(params, given, strict=False):
        for name, inner in [*flow.param_uses.items(), *flow.attribute_uses.items()]:
            base, _, part = name.partition(".")
            if (base != param.name.value or inner.repeated or inner.unseen
                    or inner.kind not in ("draw", "split") or "\x00" in part):
                continue
            found = init_part(operand, part)
            if found is not None:
                key, followed = found
                uses.append(Consumption(call, key, how, library=False, kind=inner.kind,
                                        followed=followed))
    return uses
