"""An abstract method batched by `jax.vmap` / `pmap` through its object (held-out set 8:
jugheadjones10/xland-minigrid 9f8314e, `jax.vmap(env.reset, in_axes=(None, 0, None))(params,
reset_rng, adr_params)` with `env: Environment`, whose `reset` is an `@abstractmethod`; the
scanned update resets from the same `reset_rng` at every step). Environments, samplers and
policies are written as an abstract interface with one class per kind, and reset or stepped
over a batch with `jax.vmap(env.reset)(keys)` or `jax.vmap(env.step, in_axes=(None, 0, 0))`.

Called directly, such a method consumes what every override of the project draws from
(`key_overrides.py`); batched, the rows are given the same arguments, one row each of a mapped
one: a batch of keys mapped over is consumed once by the call, and a key broadcast to every
row (`in_axes=None`) is drawn from in every row, as for a batched function of the file
(`key_batching.py`)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.index import CallSite
from optlint.analysis.key_batched_args import BROADCAST, axes_by_argument, in_axes_expression
from optlint.analysis.key_model_loops import AXES_KEYWORDS, BATCHING
from optlint.analysis.key_overrides import Abstract
from optlint.analysis.prng_keys import Consumption
from optlint.analysis.values import FunctionValue

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView


def batched_abstract(calls: KeyCallsView, call: cst.Call, batching: str, transform: cst.Call,
                     site: CallSite | None) -> list[Consumption] | None:
    """What `call`, `jax.vmap(obj.method, ...)(...)` with `method` abstract in `obj`'s project
    class, consumes of the keys it gives; None where the batched function is no such method."""
    given = argument(transform, 0, "fun")
    if site is None or given is None or not isinstance(given.value, cst.Attribute):
        return None
    # The file's call targets (`key_call_targets.CallTargets`, held by `key_calls`; not named
    # in the view, whose module its imports would reach back to).
    targets = getattr(calls, "targets", None)
    if targets is None:
        return None
    value = calls.ctx.value(given.value, site)
    if isinstance(value, FunctionValue) and value.bound and isinstance(
            value.node, cst.FunctionDef) and value.node in calls.ctx.index.functions:
        found: object = targets.objects.abstract(value)
    else:
        found = targets.objects.method_named(given.value, site)
    if not isinstance(found, Abstract):
        return None
    uses = targets.overrides.consumptions(call, found, calls.callee(call))
    if not uses:
        return None
    axes = axes_by_argument(in_axes_expression(
        calls.ctx, transform, BATCHING[batching], site,
        AXES_KEYWORDS.get(batching, "in_axes")), call, batching, calls.ctx)
    rows = []
    for use in uses:
        index = next((i for i, arg in enumerate(call.args) if arg.value is use.key), None)
        if index is not None and index < len(axes) and axes[index] == BROADCAST:
            # The same key in every row: every row draws the same numbers.
            rows.append(replace(use, repeated=True, over=f"{batching} (in_axes=None)"))
    return uses + rows
