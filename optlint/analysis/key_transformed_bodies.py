"""The function a transformation runs (a `scan` body, a `vmap`ped function, a `tree_map`ped
lambda) and the keys it draws from without being given them: drawn from again on every step,
row or leaf it runs for."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_syntax import own_method
from optlint.analysis.prng_keys import Consumption
from optlint.analysis.values import (
    FunctionValue,
    InstanceValue,
    ModuleValue,
    TransformedFunction,
)

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView


def function_arg(calls: KeyCallsView, call: cst.Call, position: int, keyword: str
                 ) -> cst.FunctionDef | None:
    """The function of the file `call` is given as its argument `position` / `keyword`."""
    ctx = calls.ctx
    arg = argument(call, position, keyword)
    site = calls.sites.get(id(call))
    if arg is None or site is None:
        return None
    value = ctx.value(arg.value, site)
    if isinstance(value, TransformedFunction):
        value = value.func
    if isinstance(value, ModuleValue) and value.cls is not None:
        value = InstanceValue(value.cls.info, value.cls.path)
    if isinstance(value, InstanceValue) and value.path == ctx.inference.path:
        method = own_method(value.info, "__call__")  # a model vmapped: its `__call__`
        if method is not None:
            value = FunctionValue(method, bound=True)
    if (isinstance(value, FunctionValue) and isinstance(value.node, cst.FunctionDef)
            and value.node in ctx.index.functions):
        return value.node
    return None


def lambda_flow(calls: KeyCallsView, function: cst.Lambda) -> KeyFlow:
    """The walk of a lambda's body."""
    flow = KeyFlow(calls.consumer, [param.name.value for param in (
        *function.params.posonly_params, *function.params.params,
        *function.params.kwonly_params)])
    flow.run_expression(function.body)
    return flow


def closed_over(calls: KeyCallsView, call: cst.Call, flow: KeyFlow, over: str
                ) -> list[Consumption]:
    """The keys a function run once per leaf or row (`flow`, its walk) draws from without
    being given them: each is drawn from by `call`, and again on every leaf or row."""
    uses = []
    for inner in flow.free_consumed().values():
        if inner.repeated or inner.kind == "fold":
            continue
        uses.append(Consumption(call, inner.key, calls.callee(call), library=False,
                                unseen=inner.unseen))
        # Reported at the draw, where each leaf needs a key of its own.
        uses.append(Consumption(inner.call, inner.key, calls.callee(inner.call),
                                library=False, repeated=True, repeated_by=call,
                                unseen=inner.unseen, over=over))
    return uses


def closure_uses(calls: KeyCallsView, call: cst.Call, function: cst.FunctionDef,
                 flow: KeyFlow, over: str) -> list[Consumption]:
    """A key of the enclosing function drawn from by a body run once per step or row."""
    if not calls.nested(function):
        return []
    uses = []
    for inner in flow.free_consumed().values():
        uses.append(Consumption(call, inner.key, calls.callee(call), library=False,
                                closed=inner.closed or inner, unseen=inner.unseen))
        if not inner.repeated:
            uses.append(replace(inner, repeated=True, over=over))
    return uses
