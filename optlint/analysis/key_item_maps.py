"""Python's `map` over a project function with an iterable that repeats one key or seed
(`map(f, jobs, [seed] * n)`): every item draws the same numbers; and the iterables that give
one value as every item (also what `jnp.stack([key] * n)` copies)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import CallSite
from optlint.analysis.key_model_loops import ITEM_MAPS, REPEATING_ITERABLES
from optlint.analysis.key_syntax import target_names
from optlint.analysis.prng_keys import Consumption
from optlint.analysis.values import FunctionValue, PartialValue

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView
    from optlint.context import RuleContext


def item_map(ctx: RuleContext, call: cst.Call, site: CallSite) -> bool:
    """A call of Python's own `map` (not a name the file binds)."""
    return (isinstance(call.func, cst.Name) and call.func.value in ITEM_MAPS
            and ctx.binding(call.func.value, site) is None)


def item_mapped(calls: KeyCallsView, call: cst.Call, site: CallSite) -> list[Consumption]:
    """`map(f, jobs, [seed] * n)`: `f` runs once per item, and an iterable that repeats one
    key or seed gives every run the same one; where `f` consumes that parameter, every item
    draws the same numbers."""
    ctx = calls.ctx
    if not call.args or any(arg.keyword is not None or arg.star for arg in call.args):
        return []
    mapped = ctx.value(call.args[0].value, site)
    fixed, keywords = 0, set()
    if isinstance(mapped, PartialValue):  # `partial(f, a, k=v)`: `a` fills f's first
        given = mapped.call.args[1:]
        if any(arg.star for arg in given):
            return []
        fixed = sum(1 for arg in given if arg.keyword is None)
        keywords = {arg.keyword.value for arg in given if arg.keyword is not None}
        mapped = mapped.func
    if (not isinstance(mapped, FunctionValue) or not isinstance(mapped.node, cst.FunctionDef)
            or mapped.node not in ctx.index.functions):
        return []
    function = mapped.node
    flow = calls.summary(function)
    if flow is None:
        return []
    params = [*function.params.posonly_params, *function.params.params][
        1 if mapped.bound else 0:]
    uses = []
    for index, arg in enumerate(call.args[1:]):
        position = fixed + index
        if position >= len(params) or params[position].name.value in keywords:
            break
        inner = flow.param_uses.get(params[position].name.value)
        repeated = None if inner is None else repeated_item(ctx, arg.value, site)
        if inner is None or repeated is None:
            continue
        how = function.name.value
        proof = f"`{ctx.code(arg.value)}` gives the same value as every item"
        uses.append(Consumption(call, repeated, how, library=False, unseen=inner.unseen))
        uses.append(Consumption(call, repeated, how, library=False, repeated=True,
                                unseen=inner.unseen, proof=proof, over="map"))
    return uses


def repeated_item(ctx: RuleContext, iterable: cst.BaseExpression, site: CallSite,
                   depth: int = 2) -> cst.BaseExpression | None:
    """The one value an iterable gives as every item: `[seed] * n`, `n * [seed]`,
    `[seed for _ in range(n)]`, `itertools.repeat(seed)`, or a name bound to one (None: not
    such an iterable)."""
    if isinstance(iterable, cst.Name) and depth > 0:
        binding = ctx.binding(iterable.value, site)
        if (binding is None or binding.kind != "assign" or binding.path
                or binding.value is None or binding.scope is None
                or len(binding.scope.bindings.get(iterable.value, [])) != 1):
            return None
        return repeated_item(ctx, binding.value, site, depth - 1)
    if isinstance(iterable, cst.BinaryOperation) and isinstance(iterable.operator, cst.Multiply):
        for side in (iterable.left, iterable.right):
            if isinstance(side, (cst.List, cst.Tuple)) and len(side.elements) == 1 \
                    and not isinstance(side.elements[0], cst.StarredElement):
                return side.elements[0].value
        return None
    if (isinstance(iterable, cst.ListComp) and iterable.for_in.inner_for_in is None
            and not iterable.for_in.ifs and isinstance(iterable.elt, (cst.Name, cst.Integer))
            and not (isinstance(iterable.elt, cst.Name)
                     and iterable.elt.value in set(target_names(iterable.for_in.target)))):
        return iterable.elt
    if (isinstance(iterable, cst.Call) and iterable.args
            and ctx.qualify(iterable.func) in REPEATING_ITERABLES
            and iterable.args[0].keyword is None):
        return iterable.args[0].value
    return None
