"""Batching that hands every row the same rng stream: Haiku's `hk.vmap(f, split_rng=False)`
over a function drawing from the stream, and Flax NNX's `nnx.vmap` with a module holding an
rng stream (or the `Rngs` themselves) broadcast (`in_axes=None`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.index import ClassInfo
from optlint.analysis.key_batched_args import BROADCAST, axes_by_argument, in_axes_expression
from optlint.analysis.key_model_streams import STATEFUL_BATCHING, STREAM_BROADCASTS, STREAM_LAYERS
from optlint.analysis.key_library_calls import last_name
from optlint.analysis.key_stream_broadcast import broadcast_rngs
from optlint.analysis.prng_keys import Consumption
from optlint.analysis.values import InstanceValue, ModuleValue

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView
    from optlint.context import RuleContext


def stream_broadcast(calls: KeyCallsView, call: cst.Call) -> list[Consumption] | None:
    """`hk.vmap(f, split_rng=False)(x)` where `f` draws from the rng stream: every row is
    given the same stream (None: not such a call)."""
    if not isinstance(call.func, cst.Call):
        return None
    batching = calls.ctx.qualify(call.func.func)
    if batching in STATEFUL_BATCHING:
        return _module_broadcast(calls, call, batching)
    switch = STREAM_BROADCASTS.get(batching or "")
    if switch is None:
        return None
    keyword, broadcasting = switch
    given = argument(call.func, None, keyword)
    function = argument(call.func, 0, "fun")
    if (given is None or not isinstance(given.value, cst.Name)
            or given.value.value != str(broadcasting) or function is None
            or last_name(function.value) not in calls.stream_drawers):
        return []
    return [Consumption(call, function.value, calls.callee(call), library=True,
                        repeated=True, over=f"{batching} ({keyword}={broadcasting})",
                        stream=True)]


def _module_broadcast(calls: KeyCallsView, call: cst.Call, batching: str
                      ) -> list[Consumption]:
    """`nnx.vmap(f, in_axes=(None, 0))(model, xs)` where `model` holds an rng stream
    (`nnx.Dropout(..., rngs=rngs)`): broadcast, every row draws from the same stream."""
    ctx = calls.ctx
    transform = call.func
    assert isinstance(transform, cst.Call)
    site = calls.sites.get(id(call))
    axes = axes_by_argument(in_axes_expression(
        ctx, transform, STATEFUL_BATCHING[batching], site), call, batching)
    broadcast = {index for index, axis in enumerate(axes) if axis == BROADCAST}
    for index in sorted(broadcast):
        if site is None or index >= len(call.args):
            break
        value = ctx.value(call.args[index].value, site)
        if isinstance(value, ModuleValue) and value.cls is not None:
            value = InstanceValue(value.cls.info, value.cls.path)
        if isinstance(value, InstanceValue) and _holds_stream(ctx, value.info):
            return [Consumption(call, call.args[index].value, calls.callee(call),
                                repeated=True, over=f"{batching} (in_axes=None)",
                                stream=True)]
    rngs = broadcast_rngs(ctx, call, transform, broadcast, site) if site else None
    return [] if rngs is None else [Consumption(
        call, rngs, calls.callee(call), repeated=True,
        over=f"{batching} (in_axes=None)", stream=True)]


def _holds_stream(ctx: RuleContext, info: ClassInfo) -> bool:
    """A class of the file that builds a layer drawing from an rng stream it is given."""
    return any(
        isinstance(binding.value, cst.Call)
        and ctx.qualify(binding.value.func) in STREAM_LAYERS
        and any(arg.keyword is not None and arg.keyword.value == "rngs"
                for arg in binding.value.args)
        for bindings in info.attributes.values() for binding in bindings)
