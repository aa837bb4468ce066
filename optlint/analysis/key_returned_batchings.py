"""A batching transformation made here and handed on, not called here: `return
shard_map(f, mesh=mesh, in_specs=(P(), P("d")), ...)` (also `partial(shard_map, ...)(f)`, or
wrapped by `jax.jit`), where the specs give a key parameter of `f`, a function of the file, no
axis (`P()`, `in_axes=None`) and `f` draws from that parameter itself. Whatever key a caller
passes, every row (shard, device) is given that same key and draws the same numbers: the reuse
is in the transformation, whoever calls it. Where the transformed function is called in the
file, the call reports it (`key_batching.py`).

A spec named by a variable (`rng_spec`) counts as replicating when the function assigns it
`P()` on some path (`rng_spec = P(axis) if draws else P()`): on that path every shard draws
the same numbers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.index import CallSite
from optlint.analysis.key_batched_args import BROADCAST, axes_by_position, in_axes_expression
from optlint.analysis.key_model_loops import AXES_KEYWORDS, BATCHING
from optlint.analysis.key_model_objects import CALLED_ONCE
from optlint.analysis.key_syntax import reads_as_key
from optlint.analysis.library_names import FUNCTOOLS_PARTIAL
from optlint.analysis.prng_keys import Consumption
from optlint.analysis.values import FunctionValue
from optlint.records import record

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView
    from optlint.context import RuleContext


@record
class ReturnedBatching:
    transform: cst.Call  # `shard_map(f, ...)`, or `partial(shard_map, ...)(f)`
    batching: str  # `jax.shard_map`
    param: cst.Param  # the key parameter given no axis
    draw: Consumption  # where the function draws from it


def returned_batchings(calls: KeyCallsView) -> Iterator[ReturnedBatching]:
    ctx = calls.ctx
    parents: dict[int, cst.CSTNode] | None = None
    for site in ctx.calls():
        made = _batching(ctx, site.node)
        if made is None:
            continue
        batching, options, given = made
        function = _function_of(ctx, given, site)
        if function is None:
            continue
        if parents is None:
            parents = ctx.index.parents()
        if not _handed_on(ctx, site.node, parents):
            continue
        params = [*function.params.posonly_params, *function.params.params]
        position = BATCHING[batching] if options is site.node else None
        axes = in_axes_expression(ctx, options, position, site,
                                  AXES_KEYWORDS.get(batching, "in_axes"))
        axes = _specs_on_some_path(ctx, axes, site)
        flow = calls.summary(function)
        if flow is None:
            continue
        for param, axis in zip(params, axes_by_position(axes, len(params), ctx), strict=True):
            name = param.name.value
            inner = flow.param_uses.get(name)
            if (axis == BROADCAST and reads_as_key(name) and name in flow.consumed_params
                    and inner is not None and not inner.unseen and inner.kind != "fold"):
                yield ReturnedBatching(site.node, batching, param, inner)


def _batching(ctx: RuleContext, call: cst.Call
              ) -> tuple[str, cst.Call, cst.BaseExpression] | None:
    """(the transformation, the call holding its options, the function it maps) for
    `shard_map(f, ...)` and `partial(shard_map, ...)(f)`."""
    name = ctx.qualify(call.func)
    if name in BATCHING:
        given = argument(call, 0, "f" if "shard_map" in name else "fun")
        return (name, call, given.value) if given is not None else None
    func = call.func
    if (isinstance(func, cst.Call) and func.args and call.args
            and ctx.qualify(func.func) == FUNCTOOLS_PARTIAL):
        name = ctx.qualify(func.args[0].value)
        if name in BATCHING:
            return name, func, call.args[0].value
    return None


def _function_of(ctx: RuleContext, given: cst.BaseExpression, site: CallSite
                 ) -> cst.FunctionDef | None:
    """The function of the file (not a method: its object would come first) `given` names."""
    value = ctx.value(given, site)
    if (isinstance(value, FunctionValue) and not value.bound
            and isinstance(value.node, cst.FunctionDef) and value.node in ctx.index.functions):
        info = ctx.index.functions[value.node]
        return value.node if info.scope.owner is None else None
    return None


def _handed_on(ctx: RuleContext, call: cst.Call, parents: dict[int, cst.CSTNode]) -> bool:
    """The transformed function is returned (through `jax.jit(...)` or `partial(jax.jit,
    ...)(...)`, which call it once with what they are given), not called here."""
    node: cst.CSTNode = call
    while True:
        parent = parents.get(id(node))
        if isinstance(parent, cst.Return):
            return True
        if not isinstance(parent, cst.Arg):
            return False
        wrapper = parents.get(id(parent))
        if not isinstance(wrapper, cst.Call) or not wrapper.args or wrapper.args[0] is not parent:
            return False
        func = wrapper.func
        if isinstance(func, cst.Call) and ctx.qualify(func.func) == FUNCTOOLS_PARTIAL:
            func = func.args[0].value if func.args else func
        if ctx.qualify(func) not in CALLED_ONCE:
            return False
        node = wrapper


def _specs_on_some_path(ctx: RuleContext, axes: cst.BaseExpression | None, site: CallSite
                        ) -> cst.BaseExpression | None:
    """The specs with each name the function assigns a `P()` on some path read as that
    `P()` (`rng_spec = P()` in one branch)."""
    if not isinstance(axes, (cst.Tuple, cst.List)):
        return axes
    elements = []
    for element in axes.elements:
        value = element.value
        if isinstance(value, cst.Name) and value.value != "None":
            binding = ctx.binding(value.value, site)
            scope = binding.scope if binding is not None else None
            replicating = [other.value for other in (
                scope.bindings.get(value.value, []) if scope is not None else [])
                if other.kind == "assign" and not other.path and other.value is not None
                and axes_by_position(cst.Tuple([cst.Element(other.value)]), 1, ctx)
                == [BROADCAST]]
            if replicating and isinstance(replicating[0], cst.Call):
                value = replicating[0]
        elements.append(element.with_changes(value=value))
    return axes.with_changes(elements=elements)
