"""OPT021 filter-transform-keyword-first: a function under `eqx.filter_grad` /
`eqx.filter_value_and_grad` called with no positional argument, its first argument by keyword.

Equinox's gradient wrappers differentiate their first *positional* argument: `_GradWrapper`
takes `x, *args = args`, so a call that passes everything by keyword raises TypeError (measured
on equinox 0.13.8: "Functions wrapped with `equinox.filter_{grad, value_and_grad}` must have their
first argument passed by position, not keyword."; before equinox 0.11 it was an unhelpful
"__call__() missing 1 required positional argument: 'x'"). `eqx.filter_jit` binds its arguments
to the signature first and passes them on by position, so a call through `filter_jit` (outermost)
runs and is not reported.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis.binding import positional_params
from optlint.analysis.index import CallSite
from optlint.analysis.library_names import EQUINOX_GRADIENT_WRAPPERS as GRADIENT_WRAPPERS
from optlint.analysis.library_names import FUNCTOOLS_PARTIAL
from optlint.analysis.values import FunctionValue, LibraryRef, TransformedFunction, Value
from optlint.context import RuleContext
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck

_SAFE_TO_REORDER = (cst.Name, cst.Integer, cst.Float, cst.SimpleString, cst.Attribute)


class FilterTransformKeywordFirst(Rule):
    code = "OPT021"
    runtime_check = RuntimeCheck(builds="call")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for site in ctx.calls():
            call = site.node
            if not _no_positional(call):
                continue
            wrapped = _gradient_wrapped(ctx, site)
            if wrapped is None:
                continue
            transform, function = wrapped
            yield _finding(ctx, call, transform, function)


def _no_positional(call: cst.Call) -> bool:
    """Keywords only (or `**kwargs`): no positional argument and no `*args`."""
    return bool(call.args) and all(arg.keyword is not None or arg.star == "**"
                                   for arg in call.args)


def _gradient_wrapped(ctx: RuleContext, site: CallSite) -> tuple[str, FunctionValue | None] | None:
    """(the Equinox gradient transformation, the function it wraps when known) when calling
    `site`'s callee runs an Equinox gradient wrapper directly (not through `filter_jit`)."""
    callee = ctx.value(site.node.func, site)
    if isinstance(callee, TransformedFunction):
        if callee.transform not in GRADIENT_WRAPPERS:
            return None
        return callee.transform, _wrapped_function(ctx, callee.func)
    if isinstance(callee, FunctionValue) and not callee.bound and isinstance(
            callee.node, cst.FunctionDef) and callee.node.decorators:
        # The outermost decorator is the one the call goes through.
        transform = _decorator_transform(ctx, callee.node.decorators[0].decorator)
        if transform is not None:
            return transform, FunctionValue(callee.node)
    return None


def _decorator_transform(ctx: RuleContext, decorator: cst.BaseExpression) -> str | None:
    """`@eqx.filter_grad`, `@eqx.filter_value_and_grad(has_aux=True)`,
    `@partial(eqx.filter_value_and_grad, has_aux=True)`."""
    if isinstance(decorator, cst.Call):
        if ctx.qualify(decorator.func) == FUNCTOOLS_PARTIAL and decorator.args:
            decorator = decorator.args[0].value
        else:
            decorator = decorator.func
    name = ctx.qualify(decorator)
    return name if name in GRADIENT_WRAPPERS else None


def _wrapped_function(ctx: RuleContext, value: Value) -> FunctionValue | None:
    """The function of the checked code the transformation wraps (here or in another file; only
    its parameters are read)."""
    if isinstance(value, FunctionValue):
        return value
    project = ctx.inference.project
    if isinstance(value, LibraryRef) and project is not None:
        found = project.resolve_function(value.name, value.origin or ctx.filename, lambda: True)
        return found[0] if found is not None else None
    return None


def _first_param(function: FunctionValue) -> cst.Param | None:
    """The parameter the wrapper differentiates: the first positional one (after `self` for a
    bound method); None when there is none (`def loss(*, model)`)."""
    params = positional_params(function.node)
    if function.bound:
        params = params[1:]
    return params[0] if params else None


def _finding(ctx: RuleContext, call: cst.Call, transform: str,
             function: FunctionValue | None) -> Finding:
    wrapper = f"`{ctx.import_alias('equinox', 'eqx')}.{GRADIENT_WRAPPERS[transform]}`"
    param = _first_param(function) if function is not None else None
    passed = next((arg for arg in call.args if param is not None and arg.keyword is not None
                   and arg.keyword.value == param.name.value), None)
    what = (f"its first argument `{param.name.value}` by keyword" if passed is not None and
            param is not None else "no argument by position")
    message = (f"a function wrapped by {wrapper} is called with {what}: Equinox differentiates "
               "the first positional argument and raises TypeError (\"must have their first "
               "argument passed by position, not keyword\")")
    if passed is None or param is None:
        return Finding(call, message, roles={"call": call})
    name = param.name.value
    before = call.args[:call.args.index(passed)]
    # Moving the argument first changes the order its expression is evaluated in; that is
    # invisible when every argument it jumps over is a name, an attribute or a literal.
    safe = all(isinstance(arg.value, _SAFE_TO_REORDER) for arg in before)
    fix = FixPlan("safe" if safe else "unsafe", f"Pass `{name}` by position",
                  [(call, ctx.code(_moved_first(call, passed)))])
    return Finding(call, message, fix, roles={"call": call})


def _moved_first(call: cst.Call, passed: cst.Arg) -> cst.Call:
    """The call with `passed` moved to the front as a positional argument; every other argument
    keeps its order, and each position keeps its original comma and spacing."""
    positional = passed.with_changes(keyword=None, equal=cst.MaybeSentinel.DEFAULT)
    order = [positional, *(arg for arg in call.args if arg is not passed)]
    args = [arg.with_changes(comma=original.comma) for arg, original in zip(order, call.args, strict=True)]
    return call.with_changes(args=args)
