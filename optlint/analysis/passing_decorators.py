"""Decorators bound to a name of the module (`@typecheck`) that pass a function's arguments on
unchanged: the name is bound, each time, to a passing transformation given no function
(`typecheck = jaxtyped(typechecker=beartype)`) or to the identity (`typecheck = lambda _: _`,
checking switched off)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_model_objects import PASSING_TRANSFORMS

if TYPE_CHECKING:
    from optlint.analysis.index import FileIndex


def passing_decorator_name(expr: cst.BaseExpression, index: FileIndex) -> bool:
    """`@typecheck` where every module-level binding of `typecheck` makes a decorator that
    passes its arguments on unchanged: `jaxtyped(typechecker=...)` (a passing transformation
    given no function), or `lambda f: f` (a switch that turns checking off)."""
    if not isinstance(expr, cst.Name):
        return False
    bindings = index.module_scope.bindings.get(expr.value, [])
    return bool(bindings) and all(
        binding.kind == "assign" and not binding.path and binding.value is not None
        and (_identity(binding.value) or (
            isinstance(binding.value, cst.Call)
            and index.imports.qualify(binding.value.func) in PASSING_TRANSFORMS
            and all(arg.keyword is not None for arg in binding.value.args)))
        for binding in bindings)


def _identity(value: cst.BaseExpression) -> bool:
    """`lambda f: f`."""
    if not isinstance(value, cst.Lambda):
        return False
    params = value.params
    return (len(params.params) == 1 and not params.posonly_params and not params.kwonly_params
            and params.star_arg is cst.MaybeSentinel.DEFAULT and params.star_kwarg is None
            and isinstance(value.body, cst.Name)
            and value.body.value == params.params[0].name.value)
