"""What a call of a project function consumes, read from the function's summary (its walk,
`KeyFlow`): the keys given as parameters it consumes, the seeds it makes its key from, the
keys its object or its closures hold, and the enclosing keys a closure draws from."""

from __future__ import annotations

from typing import NamedTuple

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.key_callables import HeldCallables
from optlint.analysis.key_filled_params import unless_given
from optlint.analysis.key_fields import given_object_consumptions, held_key_consumptions
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_folded_seeds import folded_seed
from optlint.analysis.key_literal_branches import LiteralBranches
from optlint.analysis.key_module_keys import module_key_uses
from optlint.analysis.key_none_arguments import for_callers, unless_none_given
from optlint.analysis.key_none_receivers import none_receiver
from optlint.analysis.key_record import STEPS
from optlint.analysis.key_seeded_splits import seeded_kind
from optlint.analysis.key_star_arguments import given_through_mapping, in_mapping
from optlint.analysis.key_seeds import constant_seeds, default_keys, default_seeds
from optlint.analysis.key_unseen_splits import split_for_unseen_items
from optlint.analysis.prng_keys import FOLDED_WITH, Consumption, key_name
from optlint.context import RuleContext


class ProjectCall(NamedTuple):
    """A call of a project function, with what its summary and its place say."""

    call: cst.Call
    function: cst.FunctionDef
    bound: bool  # a method, given its object first
    stepping: bool  # run as a compiled step (jitted), once per step with new keys
    flow: KeyFlow  # the function's summary
    how: str  # what the call calls, as the messages show it
    foreign: bool  # a function of another project file
    nested: bool  # defined inside another function: a closure
    # A method of another file's class run on an object whose class is known (`self.m(key)`
    # of an inherited method, `self.sampler(key=k)`, `key_object_methods.py`): the keys it is
    # given are followed, as for a method of the file.
    class_known: bool = False


def project_call_uses(ctx: RuleContext, called: ProjectCall, branches: LiteralBranches,
                      held_callables: HeldCallables) -> list[Consumption]:
    """The keys the call consumes (`branches`: what its literal arguments leave unread;
    `held_callables`: the closures it runs again)."""
    call, function, bound, stepping, flow, how, foreign, nested, class_known = called
    if foreign and bound and not class_known:
        # A method of another file's class (`key_foreign_methods.py`): the keys the objects
        # it is given hold, which it draws from (`state.rng_key`).
        return given_object_consumptions(call, function, bound, flow, how, ctx, foreign)
    # Read only on branches this call's literal arguments rule out: not consumed here (no
    # parameter consumed, nothing to rule out: the function's facts are not read).
    skipped = (branches.unread_params(function, call, bound, flow.consumed_params)
               if flow.consumed_params else frozenset())
    # A helper that splits its key first splits the caller's (it conflicts with `fold_in`).
    uses = [unless_none_given(ctx, unless_given(in_mapping(folded_seed(param_use(
                call, expr, how, stepping, param.name.value, flow, function), function, call,
                bound), call, param.name.value), function, call, bound, param.name.value),
                function, param.name.value, flow.param_uses.get(param.name.value))
            for param, expr in (*bind_arguments(function, call, bound),
                                *given_through_mapping(function, call, bound))
            if param.name.value in flow.consumed_params and param.name.value not in skipped]
    if flow.fixed_folds:
        uses += fixed_fold_uses(call, function, bound, flow, how, stepping)
    uses += default_seeds(call, function, bound, flow, how, stepping)
    uses += default_keys(call, function, bound, flow, how, stepping)
    uses += constant_seeds(call, function, flow, how, stepping)
    if not foreign:
        uses += held_callables.closures_called_again(call, function, bound, flow)
    held = held_key_consumptions(ctx.index, call, function, flow, how)
    if held:  # `self.rng` read only on branches this call's literals rule out
        unread = branches.unread_fields(function, call, {
            use.key.attr.value for use in held if isinstance(use.key, cst.Attribute)})
        uses += [use for use in held if not (isinstance(use.key, cst.Attribute)
                                             and use.key.attr.value in unread)]
    uses += given_object_consumptions(call, function, bound, flow, how, ctx, foreign)
    if nested or (not bound and not foreign):
        # A closure consuming a key of the enclosing function (or of the module, for a
        # function of the module): each call consumes it.
        # Not a key it stores anew (`info["rng"], k = split(info["rng"])`): after the call
        # the enclosing scope holds the new key, as after a method storing `self.key`.
        renewed = {name: use for name, use in flow.free_consumed().items()
                   if name not in flow.stored_names}
        free = list(renewed.values()) if nested else module_key_uses(ctx, renewed)
        uses += [Consumption(call, inner.key, how, library=False, stepping=stepping,
                             closed=inner.closed or inner, unseen=inner.unseen or none_receiver(
                                 call, function, bound, inner.closed or inner, how),
                             proof=inner.proof) for inner in free]
    return uses


def param_use(call: cst.Call, expr: cst.BaseExpression, how: str, stepping: bool,
               param: str, flow: KeyFlow, function: cst.FunctionDef) -> Consumption:
    """What `call` consumes giving `expr` as `param`, which the callee consumes: a key, or
    a seed it makes its key from (`PRNGKey(seed)`: the same seed, the same key)."""
    inner = flow.param_uses[param]
    seeded = inner.kind == "seed"
    proof = inner.proof or (f"`{how}` makes its key from `{param}`" if seeded else "")
    return Consumption(call, expr, how, library=False, stepping=stepping,
                       kind=seeded_kind(function, inner.call, flow.every) if seeded else (
                           "split" if inner.kind == "split" else "draw"),
                       unseen=(for_callers(inner, param)
                               or split_for_unseen_items(function, flow, inner)),
                       proof=proof, derives=inner.derives,
                       seeded_in=inner.call if seeded else None)


# A function drawing from its key parameter only through `fold_in(key, data)` with data it fixes
# itself (a literal, or the index of its own loop counted from a literal; MuZeroGoJax 386da2e,
# `pit` running one rollout for both players with one key): JAX's checker is silent, but two
# calls given one key fold it with the same data and draw the same numbers. The caller's key is
# followed under the folded name (`key` folded with `3`, or with "each step of `play`"): it
# conflicts with another such call or a `fold_in` of the same data, never with a plain draw.
def fixed_fold_uses(call: cst.Call, function: cst.FunctionDef, bound: bool,
                    flow: KeyFlow, how: str, stepping: bool) -> list[Consumption]:
    """What `call` consumes giving keys the callee folds with data it fixes."""
    uses = []
    for param, expr in bind_arguments(function, call, bound):
        name = param.name.value
        found = flow.fixed_folds.get(name)
        given = key_name(expr)
        if found is None or name in flow.consumed_params or given is None or "\x00" in given:
            continue
        inner, data = found
        token = data if data.isdigit() else f"{STEPS}`{how}`"
        uses.append(Consumption(
            call, expr, how, library=False, stepping=stepping, followed=f"{given}{FOLDED_WITH}"
            f"{token}", proof=f"`{how}` draws from `fold_in({name}, {data})`"
            + ("" if data.isdigit() or data.startswith(STEPS) else
               f", `{data}` counting its loop's steps from the start")))
    return uses
