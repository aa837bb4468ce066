"""`nnx.vmap(f, in_axes=(None, 0))(rngs, xs)`: Flax NNX's `Rngs` given a `None` axis is
broadcast, so every row draws the same keys from it (flax 0.12.8: `rngs.noise()` in the
mapped function gave every row the same numbers; layers built in it from `rngs=` get the same
weights). Reported where the mapped function draws from the broadcast `Rngs` itself: calls a
stream of it (`rngs.noise()`, `rngs()`) or hands it to a call as `rngs=`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.index import CallSite
from optlint.analysis.key_model_streams import SEEDED_STREAMS
from optlint.analysis.values import FunctionValue

if TYPE_CHECKING:
    from optlint.context import RuleContext


def broadcast_rngs(ctx: RuleContext, call: cst.Call, transform: cst.Call,
                   broadcast: set[int], site: CallSite) -> cst.BaseExpression | None:
    """The `Rngs` argument of `call` (which runs the function `transform` maps) given a
    `None` axis and drawn from by the mapped function (None: no such argument)."""
    mapped = argument(transform, 0, "f")
    if mapped is None:
        return None
    function: cst.FunctionDef | cst.Lambda | None = None
    if isinstance(mapped.value, cst.Lambda):
        function = mapped.value
    else:
        value = ctx.value(mapped.value, site)
        if (isinstance(value, FunctionValue) and not value.bound
                and isinstance(value.node, (cst.FunctionDef, cst.Lambda))):
            function = value.node
    if function is None:
        return None
    params = [*function.params.posonly_params, *function.params.params]
    for index in sorted(broadcast):
        if index >= len(call.args) or index >= len(params) or call.args[index].keyword:
            continue
        given = call.args[index].value
        if _is_rngs(ctx, given, site) and _draws_from(function, params[index].name.value):
            return given
    return None


def _is_rngs(ctx: RuleContext, expr: cst.BaseExpression, site: CallSite) -> bool:
    """`nnx.Rngs(0)`, a name bound once to one, or a parameter annotated `nnx.Rngs`."""
    if isinstance(expr, cst.Call):
        return ctx.qualify(expr.func) in SEEDED_STREAMS and ctx.qualify(
            expr.func) != "haiku.PRNGSequence"
    if not isinstance(expr, cst.Name):
        return False
    binding = ctx.binding(expr.value, site)
    if binding is None or binding.scope is None:
        return False
    if binding.kind == "param" and isinstance(binding.node, cst.Param):
        annotation = binding.node.annotation
        return annotation is not None and ctx.qualify(annotation.annotation) in SEEDED_STREAMS
    return (binding.kind == "assign" and not binding.path
            and len(binding.scope.bindings.get(expr.value, [])) == 1
            and isinstance(binding.value, cst.Call) and _is_rngs(ctx, binding.value, site))


def _draws_from(function: cst.FunctionDef | cst.Lambda, param: str) -> bool:
    """The body calls a stream of `param` (`rngs.dropout()`, `rngs()`) or hands it to a call
    as `rngs=`."""
    finder = _Draws(param)
    function.body.visit(finder)
    return finder.found


class _Draws(cst.CSTVisitor):
    def __init__(self, param: str) -> None:
        self.param = param
        self.found = False

    def visit_Call(self, node: cst.Call) -> bool:
        func = node.func
        if isinstance(func, cst.Attribute):
            func = func.value
        if isinstance(func, cst.Name) and func.value == self.param:
            self.found = True
        if any(arg.keyword is not None and arg.keyword.value == "rngs"
               and isinstance(arg.value, cst.Name) and arg.value.value == self.param
               for arg in node.args):
            self.found = True
        return not self.found

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False  # a nested def may rebind the name; not followed

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False
