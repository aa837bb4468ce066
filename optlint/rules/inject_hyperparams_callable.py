"""OPT002 inject-hyperparams-callable: inject_hyperparams takes a non-schedule callable for a schedule.

`optax.inject_hyperparams(opt)(...)` calls every callable argument not named in `static_args` with
the step count, as a schedule. A mask function then returns `False` (weight decay silently off), a
module-shaped mask raises at init, a dtype raises. Separately, a few optimizers use some numeric
arguments in Python control flow; traced, they raise under `jax.jit`.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.index import CallSite
from optlint.analysis.binding import argument, bind_arguments
from optlint.analysis.forwarded import forwarded_keywords
from optlint.analysis.library_names import OPTAX_INJECT_HYPERPARAMS, OPTAX_MASKED
from optlint.analysis.optax_model import calls_callable_tree
from optlint.analysis.optax_table import behaviour
from optlint.analysis.values import (
    FunctionValue,
    InjectFactory,
    LibraryRef,
    ModuleValue,
    PartialValue,
    Value,
)
from optlint.context import RuleContext
from optlint.fixes import with_keyword
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck


class InjectHyperparamsCallable(Rule):
    code = "OPT002"
    runtime_check = RuntimeCheck("transform", probe="weight_decay_mask:decay_follows_mask")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for site, callee in ctx.callees():
            if isinstance(callee, PartialValue) and isinstance(callee.func, InjectFactory):
                # `partial(optax.inject_hyperparams(optax.adamw), b1=0.9)(mask=fn)`: the
                # factory is called all the same; this call's arguments reach it.
                callee = callee.func
            if isinstance(callee, InjectFactory) and callee.static_args is not None:
                finding = self._callable_arguments(ctx, site, callee)
                if finding is not None:
                    yield finding
                yield from self._forwarded_arguments(ctx, site, callee)
            if _builds_factory(ctx, site, callee):
                factory = ctx.value(site.node, site)
                if isinstance(factory, InjectFactory) and factory.static_args is not None:
                    finding = self._required_statics(ctx, site.node, factory)
                    if finding is not None:
                        yield finding

    # non-schedule callables passed when building the optimizer -------------------------------
    def _callable_arguments(self, ctx: RuleContext, site: CallSite,
                            factory: InjectFactory) -> Finding | None:
        static = factory.static_args or ()
        problems: list[tuple[str, cst.BaseExpression, str, bool]] = []
        for name, node in _bound_arguments(ctx, site.node, factory.inner):
            if name in static:
                continue
            value = ctx.inference.value_of(node, site.scope, site.order)
            effect = _effect(name, value)
            if effect is not None:
                problems.append((name, node, effect, isinstance(value, ModuleValue)))
        if not problems:
            return None
        names = [name for name, _, _, _ in problems]
        merged = (*static, *names)
        message = f"inject_hyperparams {_effects([(name, effect) for name, _, effect, _ in problems])}"
        advice = f"Add static_args={_tuple_code(merged)}"
        wrap = [node for _, node, _, module in problems if module]
        version = ctx.versions.get("optax").version
        wrap_needed = bool(wrap) and calls_callable_tree(OPTAX_MASKED, "mask", version) is not False
        if wrap_needed:
            advice += (" and pass the mask as `lambda _: ...` (optax < 0.2.4 still calls a static "
                       f"module-shaped mask; {ctx.versions.describe('optax')})")
        fix = _static_args_fix(ctx, site.node, factory, names, wrap if wrap_needed else [])
        return Finding(site.node, message, fix, fix_title=advice, roles={"call": site.node})

    def _forwarded_arguments(self, ctx: RuleContext, site: CallSite,
                             factory: InjectFactory) -> Iterator[Finding]:
        """Keywords a helper's callers hand on to the factory through the helper's `**kwargs`
        (`with_logged_lr(optax.adamw, mask=fn)`): reported at each call that passes one."""
        static = factory.static_args or ()
        helper = site.scope.node
        for caller, args in forwarded_keywords(ctx.inference, site):
            problems: list[tuple[str, str]] = []
            for arg in args:
                assert arg.keyword is not None
                name = arg.keyword.value
                if name not in static:
                    effect = _effect(name, ctx.inference.value_of(arg.value, caller.scope,
                                                                  caller.order))
                    if effect is not None:
                        problems.append((name, effect))
            if not problems:
                continue
            through = (f"`{helper.name.value}`" if isinstance(helper, cst.FunctionDef)
                       else "the helper")
            merged = (*static, *(name for name, _ in problems))
            message = (f"inject_hyperparams (called in {through} with these keywords) "
                       f"{_effects(problems)}")
            advice = (f"Add static_args={_tuple_code(merged)} to the inject_hyperparams call in "
                      f"{through}")
            yield Finding(caller.node, message, fix_title=advice, roles={"call": caller.node})

    # arguments the inner optimizer needs as Python values ---------------------------------
    def _required_statics(self, ctx: RuleContext, call: cst.Call,
                          factory: InjectFactory) -> Finding | None:
        if not isinstance(factory.inner, LibraryRef):
            return None
        row = behaviour(factory.inner.name)
        required = row.inject_static_required if row is not None else ()
        missing = [name for name in required if name not in (factory.static_args or ())]
        if not missing:
            return None
        optimizer = factory.inner.name
        merged = (*(factory.static_args or ()), *missing)
        message = (f"inject_hyperparams traces {_quoted(missing)} of {optimizer}, which uses them "
                   f"as Python values: under jax.jit the update raises TracerBoolConversionError")
        # The optimizer is the factory's call, where the file makes it right away.
        built = next((site.node for site in ctx.calls() if site.node.func is call), None)
        return Finding(call, message, _static_args_fix(ctx, call, factory, missing, []),
                       fix_title=f"Add static_args={_tuple_code(merged)}",
                       roles={"call": built} if built is not None else {})


def _builds_factory(ctx: RuleContext, site: CallSite, callee: Value) -> bool:
    """`optax.inject_hyperparams(opt)` or `functools.partial(optax.inject_hyperparams, ...)(opt)`."""
    if ctx.qualify(site.node.func) == OPTAX_INJECT_HYPERPARAMS:
        return True
    return isinstance(callee, PartialValue) and callee.func == LibraryRef(OPTAX_INJECT_HYPERPARAMS)


def _bound_arguments(ctx: RuleContext, call: cst.Call,
                     inner: Value) -> Iterator[tuple[str, cst.BaseExpression]]:
    """(parameter name, expression) for the arguments inject_hyperparams binds and inspects."""
    if isinstance(inner, PartialValue):  # partial keywords are bound as defaults
        for arg in inner.call.args:
            if arg.keyword is not None:
                yield arg.keyword.value, arg.value
        inner = inner.func
    bound: list[tuple[cst.Param, cst.BaseExpression]] = []
    if isinstance(inner, FunctionValue) and isinstance(inner.node, cst.FunctionDef):
        params = inner.node.params
        for param in (*params.params, *params.kwonly_params):
            if param.default is not None and argument(call, None, param.name.value) is None:
                yield param.name.value, param.default
        bound = bind_arguments(inner.node, call)
        yield from ((param.name.value, expr) for param, expr in bound)
    named = {param.name.value for param, _ in bound}
    for arg in call.args:  # keywords the factory takes through `**kwargs`, or a library's
        if arg.keyword is not None and arg.keyword.value not in named:
            yield arg.keyword.value, arg.value


def _effect(name: str, value: Value) -> str | None:
    """What goes wrong when `value` is taken for a schedule, or None when it may be one."""
    if isinstance(value, ModuleValue) and value.is_callable is not False:
        return f"the module-shaped {value.class_name} is called with the step count and init raises"
    if "mask" in name and _is_function(value):
        if name in ("mask", "weight_decay_mask"):
            return ("weight decay is silently disabled (the mask function is called with the step "
                    "count and gives False)")
        return "the mask is silently replaced by the function's value at the step count"
    if name.endswith("dtype") and isinstance(value, LibraryRef) and apis.is_dtype(value.name):
        return "the dtype is called with the step count and the optimizer raises TypeError"
    return None


def _is_function(value: Value) -> bool:
    if isinstance(value, (FunctionValue, PartialValue)):
        return True
    leaf = value.name.rsplit(".", 1)[-1] if isinstance(value, LibraryRef) else ""
    return bool(leaf) and leaf[:1].islower() and not apis.is_optax_schedule(
        value.name if isinstance(value, LibraryRef) else "")


def _static_args_fix(ctx: RuleContext, flagged: cst.Call, factory: InjectFactory,
                     names: list[str], wrap: list[cst.BaseExpression]) -> FixPlan | None:
    """Add `names` to static_args (and wrap module masks in `lambda _:`), inside `flagged` only."""
    target = factory.call
    if target is None or factory.static_args is None or not _contains(flagged, target):
        return None
    if not all(_contains(flagged, node) for node in wrap):
        return None
    merged = (*factory.static_args, *names)
    existing = _static_args_argument(target)
    replacements: list[tuple[cst.CSTNode, str]] = []
    if existing is not None:
        is_list = isinstance(existing.value, cst.List)
        value = cst.parse_expression(_tuple_code(merged, as_list=is_list))
        args = [arg.with_changes(value=value) if arg is existing else arg for arg in target.args]
        replacements.append((target, ctx.code(target.with_changes(args=args))))
    else:
        added = with_keyword(target, "static_args", _tuple_code(merged))
        replacements.append((target, ctx.code(added)))
    replacements.extend((node, f"lambda _: {ctx.code(node)}") for node in wrap)
    # The title names every edit: static_args alone still fails on optax < 0.2.4 (measured on
    # 0.2.3: `masked` then calls the module-shaped mask with the params).
    wrapped = " and pass the mask as `lambda _: ...`" if wrap else ""
    return FixPlan("safe", f"Add static_args={_tuple_code(merged)}{wrapped}", replacements)


def _static_args_argument(call: cst.Call) -> cst.Arg | None:
    # inject_hyperparams(opt, ("mask",)) gives static_args positionally; a partial cannot.
    return argument(call, 1, "static_args")


def _tuple_code(names: tuple[str, ...], as_list: bool = False) -> str:
    unique = list(dict.fromkeys(names))
    quoted = ", ".join(f'"{name}"' for name in unique)
    if as_list:
        return f"[{quoted}]"
    return f"({quoted},)" if len(unique) == 1 else f"({quoted})"


def _effects(problems: list[tuple[str, str]]) -> str:
    """"treats 'mask' as a schedule: ..." for (argument name, effect) pairs."""
    if len(problems) == 1:
        return f"treats '{problems[0][0]}' as a schedule: {problems[0][1]}"
    return f"treats {_quoted([name for name, _ in problems])} as schedules: " + "; ".join(
        f"'{name}': {effect}" for name, effect in problems)


def _quoted(names: list[str]) -> str:
    return ", ".join(f"'{name}'" for name in names)


class _Finder(cst.CSTVisitor):
    def __init__(self, target: cst.CSTNode) -> None:
        self.target = target
        self.found = False

    def on_visit(self, node: cst.CSTNode) -> bool:
        if node is self.target:
            self.found = True
        return not self.found


def _contains(root: cst.CSTNode, node: cst.CSTNode) -> bool:
    finder = _Finder(node)
    root.visit(finder)
    return finder.found
