"""What a call of a function of the file hands back, for `GivenCallables`' walk back from a
callable to the values that reach it: the values its `return` statements give, with the
function's parameters bound to what *this* call passes (`replicate(model)` returns `model`'s
tree, not the tree of every other call of `replicate`, such as `replicate(opt_state)`), and
for a tuple unpacked from the call (`loss, model, opt_state = make_step(...)`), the element of
each returned tuple at the target's place. A function run through a transformation that
passes its arguments on (`make_step = jax.pmap(make_step, ...)`) returns what it returns
(a pmapped model is still an instance of its class, row by row)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.index import LATER, CallSite, Scope
from optlint.analysis.key_model_objects import PASSING_TRANSFORMS
from optlint.analysis.library_names import FUNCTOOLS_PARTIAL
from optlint.analysis.values import FunctionValue, TransformedFunction

if TYPE_CHECKING:
    from optlint.context import RuleContext

Origins = list[tuple[cst.BaseExpression, CallSite]]
# Follows an expression back from a place, with the steps left (`GivenCallables._origins`).
Follow = Callable[[cst.BaseExpression, CallSite, int], "Origins | None"]


class ReturnedOrigins:
    """The parameters bound by the calls being followed (innermost last), and the walk of
    their returns."""

    def __init__(self, ctx: RuleContext, follow: Follow) -> None:
        self.ctx = ctx
        self.follow = follow
        self._given: list[tuple[Scope, dict[str, tuple[cst.BaseExpression, CallSite]]]] = []

    def of_call(self, call: cst.Call, site: CallSite, depth: int, path: tuple[int, ...] = ()
                ) -> Origins | None:
        """The values `call` may hand back, at `path` in a returned tuple; `[(call, site)]`
        when it is not a function of the file that returns, None when an element cannot be
        told."""
        function = _called_function(self.ctx, call.func, site)
        info = self.ctx.index.functions.get(function) if function is not None else None
        if function is None or info is None or not info.returns:
            return None if path else [(call, site)]
        self._given.append((info.scope, {param.name.value: (passed, site) for param, passed
                                         in bind_arguments(function, call)}))
        try:
            found: Origins = []
            for returned in info.returns:
                element = element_at(returned, path)
                more = None if element is None else self.follow(
                    element, CallSite(site.node, info.scope, LATER), depth - 1)
                if more is None:
                    return None
                found += more
            return found
        finally:
            self._given.pop()

    def given(self, name: str, scope: Scope) -> tuple[cst.BaseExpression, CallSite] | None:
        """What the call being followed gives parameter `name` of `scope` (None: no call of
        that function is being followed, or the function rebinds the name)."""
        names = next((names for owner, names in reversed(self._given) if owner is scope), None)
        if names is None or name not in names or len(scope.bindings.get(name, [])) != 1:
            return None
        return names[name]


def element_at(value: cst.BaseExpression | None, path: tuple[int, ...]
               ) -> cst.BaseExpression | None:
    """The item of a tuple written out at `path` (`return loss, model, state`: `model` for
    `(1,)`); None where it is not written out."""
    for index in path:
        if not isinstance(value, (cst.Tuple, cst.List)) or index >= len(value.elements) or any(
                isinstance(element, cst.StarredElement) for element in value.elements):
            return None
        value = value.elements[index].value
    return value


def _called_function(ctx: RuleContext, func: cst.BaseExpression, site: CallSite
                     ) -> cst.FunctionDef | None:
    """The module-level or nested function of the file calling `func` runs with the call's
    arguments: the function, through transformations that pass them on, also through a name
    bound to one (`make_step = pmap(make_step, ...)`, which the evaluator leaves unknown)."""
    value = ctx.value(func, site)
    while isinstance(value, TransformedFunction) and value.transform in PASSING_TRANSFORMS:
        value = value.func
    if (isinstance(value, FunctionValue) and not value.bound
            and isinstance(value.node, cst.FunctionDef)):
        return value.node
    binding = ctx.binding(func.value, site) if isinstance(func, cst.Name) else None
    if (binding is None or binding.kind != "assign" or binding.path or binding.scope is None
            or not isinstance(binding.value, cst.Call)):
        return None
    return transformed_function(ctx, binding.value, binding.scope, binding.order)


def transformed_function(ctx: RuleContext, made: cst.Call, scope: Scope, order: int
                         ) -> cst.FunctionDef | None:
    """The function of the file a transformation call wraps, when its arguments reach the
    function unchanged (a `functools.partial` of it that binds only keywords)."""
    if ctx.qualify(made.func) not in PASSING_TRANSFORMS or not made.args:
        return None
    wrapped = made.args[0].value
    if isinstance(wrapped, cst.Call) and ctx.qualify(wrapped.func) == FUNCTOOLS_PARTIAL:
        if not wrapped.args or any(arg.keyword is None or arg.star
                                   for arg in wrapped.args[1:]):
            return None
        wrapped = wrapped.args[0].value
    value = ctx.inference.value_of(wrapped, scope, order)
    if (isinstance(value, FunctionValue) and not value.bound
            and isinstance(value.node, cst.FunctionDef)):
        return value.node
    return None
