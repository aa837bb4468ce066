"""Keys handed to every row of a batching transformation (`jax.vmap` / `pmap`, `shard_map`):
a key broadcast (`in_axes=None`) or replicated (`replicate(key)`) to a function that draws
from it gives every row the same numbers; a batch of keys mapped over is drawn from once."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument, bind_arguments
from optlint.analysis.index import CallSite
from optlint.analysis.key_batched_args import (
    BROADCAST,
    MAPPED,
    axes_by_argument,
    decorated_batching,
    decorated_def,
    held_in_every_row,
    in_axes_expression,
    mapped_partial,
)
from optlint.analysis.key_batched_abstract import batched_abstract
from optlint.analysis.key_batched_partials import BatchedPartials
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_chosen_callees import chosen_callee
from optlint.analysis.key_model_loops import (
    AXES_KEYWORDS,
    BATCHING,
    REPLICATING,
    REPLICATING_NAMES,
    STACKING,
)
from optlint.analysis.key_model_objects import CALLED_ONCE
from optlint.analysis.key_overrides import abstract_kind
from optlint.analysis.key_item_maps import repeated_item
from optlint.analysis.key_library_calls import last_name
from optlint.analysis.key_transformed_bodies import (
    closed_over,
    closure_uses,
    function_arg,
    lambda_flow,
)
from optlint.analysis.prng_keys import Consumption
from optlint.analysis.project_kinds import method_kinds
from optlint.analysis.values import TransformedFunction

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView
    from optlint.context import RuleContext


def batched_consumptions(calls: KeyCallsView, call: cst.Call, site: CallSite | None
                         ) -> list[Consumption] | None:
    """What `call`, a batching transformation's result called, consumes (None: not such a
    call)."""
    made = batching_of(calls, call)
    if made is None:
        return None
    ctx = calls.ctx
    batching, transform = made
    function = function_arg(calls, transform, 0, "fun")
    if function is None and transform.args and transform.args[0].value is call.func:
        function = decorated_def(ctx, call, site)  # `@partial(jax.vmap, ...)` def
    if function is None or abstract_kind(function, ctx.qualify) == "abstract":
        # `jax.vmap(env.reset)(keys)`, `reset` abstract: what its overrides draw.
        abstract = batched_abstract(calls, call, batching, transform, site)
        if abstract is not None:
            return abstract
    if function is None:
        given = argument(transform, 0, "fun")
        if given is not None and isinstance(given.value, cst.Lambda):
            # `vmap(lambda x: draw(key, x))(xs)`: the key it closes over, in every row; and
            # `vmap(lambda k: draw(k))(repeat(key[None], n, axis=0))`: a key copied to each.
            walked = lambda_flow(calls, given.value)
            return (closed_over(calls, call, walked, f"{batching} (a key closed over)")
                    + _given_rows(calls, call, batching, transform, site, given.value, walked,
                                  False))
        partial = mapped_partial(ctx, transform, site) if site is not None else None
        if partial is not None:
            return BatchedPartials(calls).consumptions(call, batching, *partial)
        return _given_batched(calls, call, batching, transform)
    flow = calls.summary(function)
    if flow is None:
        return []
    # Reported at the batched call, where the key is handed to every row.
    uses = [replace(use, call=call, how=use.how if not use.repeated else calls.callee(
        use.call)) for use in closure_uses(calls, call, function, flow, batching)]
    uses += held_in_every_row(ctx, call, transform, function, flow, batching)
    info = ctx.index.functions.get(function)
    # A method mapped through its object (`jax.vmap(self._step)`) is given its object first;
    # a `@staticmethod` is not.
    method = (info is not None and info.scope.owner is not None
              and "staticmethod" not in method_kinds(function))
    return uses + _given_rows(calls, call, batching, transform, site, function, flow, method)


def _given_rows(calls: KeyCallsView, call: cst.Call, batching: str, transform: cst.Call,
                site: CallSite | None, function: cst.FunctionDef | cst.Lambda, flow: KeyFlow,
                method: bool) -> list[Consumption]:
    """What the rows of the batched `function` (its walk `flow`) consume of the keys `call`
    gives it: a batch of keys mapped over once; a key broadcast or replicated to every row
    in each row."""
    ctx = calls.ctx
    axes = axes_by_argument(in_axes_expression(
        ctx, transform, BATCHING[batching], site,
        AXES_KEYWORDS.get(batching, "in_axes")), call, batching, ctx)
    uses: list[Consumption] = []
    for param, expr in bind_arguments(function, call, method):
        inner = flow.param_uses.get(param.name.value)
        index = next((i for i, a in enumerate(call.args) if a.value is expr), None)
        if inner is None or index is None or (isinstance(expr, cst.Name)
                                              and expr.value == "None"):
            # `None` holds no key: a draw from the parameter as given would raise, so the
            # rows draw nothing from it (flashbax `vmap(sample)(state, None, values)`).
            continue
        replicated = replicated_key(calls, expr, call)
        if axes[index] == MAPPED and replicated is None:
            # Each row draws from its own key of the batch: the batch is consumed once,
            # by what draws in each row.
            uses.append(Consumption(call, expr, inner.how, library=False,
                                    unseen=inner.unseen, proof=inner.proof))
            continue
        if axes[index] != BROADCAST and replicated is None:
            continue
        uses.append(Consumption(call, replicated or expr, calls.callee(call),
                                library=False, unseen=inner.unseen))
        uses.append(Consumption(call, replicated or expr, calls.callee(inner.call),
                                library=False, repeated=True, unseen=inner.unseen,
                                repeated_by=_set_up_apart(calls, call, transform),
                                drawn_at=inner.call if calls.ctx.site_of(inner.call) else None,
                                over=f"{batching} " + (
                                    "(a replicated key)" if replicated is not None
                                    else "(in_specs=P())" if batching in AXES_KEYWORDS
                                    else "(in_axes=None)")))
    return uses


def _given_batched(calls: KeyCallsView, call: cst.Call, batching: str, transform: cst.Call
                   ) -> list[Consumption]:
    """`jax.vmap(model, in_axes=(0, None))(x, key)` where `model` is a parameter: a key
    broadcast to a function the caller gives, which may draw from it in every row or not
    (a consumption for `--preview` only)."""
    ctx = calls.ctx
    given = argument(transform, 0, "fun")
    site = calls.sites.get(id(call))
    if (given is None or not isinstance(given.value, cst.Name) or site is None
            or not calls.given_function(given.value, site)):
        return []
    axes = axes_by_argument(in_axes_expression(
        ctx, transform, BATCHING[batching], site,
        AXES_KEYWORDS.get(batching, "in_axes")), call, batching, ctx)
    broadcast = {index for index, axis in enumerate(axes) if axis == BROADCAST}
    unseen = (f"`{given.value.value}` is a function given by a caller; the analysis "
              f"cannot see it draw from the key")
    drawn, proof = calls.drawn_by_given(given.value, site, call)
    for index in sorted(broadcast):
        if index < len(call.args) and calls.reads_as_key(call.args[index].value):
            key = call.args[index].value
            proven, proof = ("", proof) if id(key) in drawn else (unseen, "")
            return [Consumption(call, key, calls.callee(call), library=False,
                                unseen=proven, proof=proof),
                    Consumption(call, key, calls.callee(call), library=False,
                                repeated=True, unseen=proven, proof=proof,
                                repeated_by=_set_up_apart(calls, call, transform),
                                over=f"{batching} (in_axes=None)")]
    return []


def _set_up_apart(calls: KeyCallsView, call: cst.Call, transform: cst.Call) -> cst.Call | None:
    """The transformation's call where it is made apart from `call` (`step = jax.pmap(step,
    in_axes=(0, None))`, then `step(x, key)`): where the key is given no axis, for the
    finding's roles (None: made in the call itself, or by a decorator, which is no call of
    the file)."""
    if isinstance(call.func, cst.Call) or id(transform) not in calls.sites:
        return None
    return transform


def batching_of(calls: KeyCallsView, call: cst.Call) -> tuple[str, cst.Call] | None:
    """`jax.vmap(f, ...)(...)`, or a name bound to it called: the transformation's name and
    its call."""
    ctx = calls.ctx
    if isinstance(call.func, cst.Call):
        made = _inside_compiling(ctx, call.func)
        batching = ctx.qualify(made.func)
        return (batching, made) if batching in BATCHING else None
    func = chosen_callee(ctx, call.func)  # `(jax.jit(draw) if jit else draw)(...)`: `draw`
    if not isinstance(func, cst.Name) or func.value not in calls.helpers:
        return None
    site = calls.sites.get(id(call))
    value = ctx.value(func, site) if site is not None else None
    if (isinstance(value, TransformedFunction) and value.transform in BATCHING
            and value.call is not None):
        return value.transform, value.call
    decorated = decorated_batching(ctx, value, func)
    if decorated is not None:
        return decorated
    binding = ctx.binding(func.value, site) if site is not None else None
    if binding is not None and not binding.path and isinstance(binding.value, cst.Call):
        made = _inside_compiling(ctx, binding.value)
        batching = ctx.qualify(made.func)  # `draw = jax.pmap(f)`
        if batching in BATCHING:
            return batching, made
    return None


def _inside_compiling(ctx: RuleContext, made: cst.Call) -> cst.Call:
    """The transformation `jax.jit(jax.vmap(f))` compiles: jit passes its arguments on, once
    per call, to what it wraps (`made` itself when it wraps no call)."""
    while (ctx.qualify(made.func) in CALLED_ONCE and made.args
           and isinstance(made.args[0].value, cst.Call)):
        made = made.args[0].value
    return made


def replicated_key(calls: KeyCallsView, expr: cst.BaseExpression, call: cst.Call
                   ) -> cst.BaseExpression | None:
    """The key a `replicate(key)` copies to every device (also through a name)."""
    ctx = calls.ctx
    if isinstance(expr, cst.Name):
        site = calls.sites.get(id(call))
        binding = ctx.binding(expr.value, site) if site is not None else None
        if binding is None or binding.path or not isinstance(binding.value, cst.Call):
            return None
        expr = binding.value
    if (isinstance(expr, cst.Call) and expr.args
            and (ctx.qualify(expr.func) in REPLICATING
                 or last_name(expr.func) in REPLICATING_NAMES)):
        copied = expr.args[0].value
        if (isinstance(copied, cst.Subscript) and len(copied.slice) == 1
                and isinstance(copied.slice[0].slice, cst.Index)
                and isinstance(copied.slice[0].slice.value, cst.Name)
                and copied.slice[0].slice.value.value == "None"):
            copied = copied.value  # `jnp.repeat(key[None], n, axis=0)`
        return copied
    if isinstance(expr, cst.Call) and expr.args and ctx.qualify(expr.func) in STACKING:
        site = calls.sites.get(id(call))  # `jnp.stack([key] * n)`: n copies of `key`
        return (repeated_item(ctx, expr.args[0].value, site)
                if site is not None else None)
    return None
