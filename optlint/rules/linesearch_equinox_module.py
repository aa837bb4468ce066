"""OPT005 linesearch-equinox-module: `optax.lbfgs` and the line searches used with an Equinox module.

A line search evaluates the objective itself: its `update` needs `value=`, `grad=` and `value_fn=`,
and calls `value_fn(params)` with the params it is given. With an unfiltered module as params the
tree arithmetic meets the module's functions (`init` raises AttributeError, `update` TypeError); with
filtered params a `value_fn` written for the whole module finds `None` where its functions were. The
working pattern: `params, static = eqx.partition(model, eqx.is_array)` and a `value_fn` that rebuilds
the model with `eqx.combine(params, static)`.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis.binding import positional_params
from optlint.analysis.callsites import CallSites
from optlint.analysis.index import CallSite
from optlint.analysis.binding import argument
from optlint.analysis.library_names import LINESEARCH_INIT_ERRORS as _INIT_ERROR, OPTAX_LBFGS
from optlint.analysis.linesearch import linesearch_part, runs_linesearch
from optlint.analysis.values import (
    FunctionValue,
    ModuleValue,
    SolverValue,
    TransformValue,
    proven_leaves,
    unfiltered_module,
)
from optlint.context import RuleContext
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck
from optlint.rule_helpers.phrases import leaves_phrase

_LINESEARCH_ARGUMENTS = ("value", "grad", "value_fn")


class LinesearchEquinoxModule(Rule):
    code = "OPT005"
    runtime_check = RuntimeCheck("params", probe="line_search:updates_with_line_search")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        callsites = CallSites(ctx.index, ctx.inference)
        for site in ctx.calls_where(("run", "init")):
            func = site.node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "run":
                yield from self._check_jaxopt_run(ctx, site)
                continue
            if not isinstance(func, cst.Attribute) or func.attr.value != "init":
                continue
            part = linesearch_part(ctx.value(func.value, site))
            if part is not None:
                yield from self._check_init(ctx, site, part)
        # `opt.update(...)`, and `update` called through a JAX transformation of it.
        for site, optimizer in ctx.method_invocations("update"):
            part = linesearch_part(optimizer)
            if part is not None:
                yield from self._check_update(ctx, site, part, callsites)

    def _check_init(self, ctx: RuleContext, site: CallSite,
                    part: TransformValue) -> Iterator[Finding]:
        params = argument(site.node, 0, "params")
        module = unfiltered_module(ctx.value(params.value, site)) if params else None
        if params is None or module is None:
            return
        eqx = ctx.import_alias("equinox", "eqx")
        message = (f"`init` of {_describe(part)} is given Equinox module {module.class_name}, which "
                   f"{leaves_phrase(module)}: {_harm(part, module)}")
        advice = (f"Pass `{eqx}.filter(..., {eqx}.is_array)` (and let `value_fn` rebuild the "
                  f"model with `{eqx}.combine(params, static)`)")
        yield Finding(params.value, message, _filter_fix(ctx, params.value), _unseen(module),
                      fix_title=advice, roles={"call": site.node})

    def _check_jaxopt_run(self, ctx: RuleContext, site: CallSite) -> Iterator[Finding]:
        func = site.node.func
        assert isinstance(func, cst.Attribute)
        solver = ctx.value(func.value, site)
        params = argument(site.node, 0, "init_params")
        if not isinstance(solver, SolverValue) or params is None:
            return
        module = unfiltered_module(ctx.value(params.value, site))
        if module is None or module.leaves.kind != "callable":
            return
        eqx = ctx.import_alias("equinox", "eqx")
        yield Finding(params.value, (
            f"`{solver.name}.run` is given Equinox module {module.class_name}, which "
            f"{leaves_phrase(module)}: jaxopt jits the solver over its params and raises "
            f"TypeError (not a valid JAX type)"), fix_title=(
            f"Split with `params, static = {eqx}.partition(model, {eqx}.is_array)`, rebuild the "
            f"model in `fun` with `{eqx}.combine(params, static)` and call `run(params, ...)`"))

    def _check_update(self, ctx: RuleContext, site: CallSite, part: TransformValue,
                      callsites: CallSites) -> Iterator[Finding]:
        call = site.node
        eqx = ctx.import_alias("equinox", "eqx")
        params = argument(call, 2, "params")
        module = unfiltered_module(ctx.value(params.value, site)) if params is not None else None
        value_fn = argument(call, None, "value_fn")
        takes_module = _value_fn_module(ctx, site, value_fn, callsites) if value_fn else None
        if params is not None and module is not None:
            message = (f"`update` of {_describe(part)} is given Equinox module {module.class_name} "
                       f"as params, which {leaves_phrase(module)}: {_harm(part, module, 'update')}")
            if takes_module is None:
                yield Finding(params.value, message, _filter_fix(ctx, params.value),
                              _unseen(module), fix_title=f"Pass `{eqx}.filter(..., {eqx}.is_array)`",
                              roles={"call": call})
            else:
                # Filtering alone would hand `value_fn` the filtered params: no automatic fix.
                yield Finding(params.value, message, unproven=_unseen(module),
                              fix_title=_combine_advice(eqx, value_fn), roles={"call": call})
                takes_module = None  # said once, here
        missing = [name for name in _LINESEARCH_ARGUMENTS if argument(call, None, name) is None]
        if missing and runs_linesearch(part) and not any(arg.star == "**" for arg in call.args):
            yield Finding(call, _missing_message(part, missing), fix_title=_missing_advice(missing),
                          roles={"call": call})
        # Whatever the params: filtered ones have None where the functions were, and the whole
        # module breaks the line search's own arithmetic.
        if value_fn is not None and takes_module is not None:
            yield Finding(value_fn.value, (
                f"`value_fn` takes Equinox module {takes_module.class_name}, which "
                f"{leaves_phrase(takes_module)}, but the line search calls it with `update`'s "
                f"params, which must be filtered (those leaves are None there): it raises TypeError"),
                fix_title=_combine_advice(eqx, value_fn), roles={"call": call})


def _value_fn_module(ctx: RuleContext, site: CallSite, value_fn: cst.Arg,
                     callsites: CallSites) -> ModuleValue | None:
    """The unfiltered module `value_fn`'s first parameter is known to receive elsewhere."""
    function = ctx.value(value_fn.value, site)
    if not isinstance(function, FunctionValue):
        return None
    params = positional_params(function.node)
    if not params:
        return None
    first = params[0].name.value
    arrivals = callsites.arrivals(function.node, first)
    for arrival in [*arrivals, *callsites.forwarded_arrivals(function.node, first)]:
        module = unfiltered_module(arrival.value)
        if module is not None and module.leaves.kind == "callable":
            return module
    return None


def _unseen(module: ModuleValue) -> str | None:
    return None if proven_leaves(module) else "which of the module's leaves are not arrays"


def _filter_fix(ctx: RuleContext, node: cst.BaseExpression) -> FixPlan:
    eqx = ctx.import_alias("equinox", "eqx")
    return FixPlan("safe", f"Filter with `{eqx}.filter(..., {eqx}.is_array)`",
                   [(node, f"{eqx}.filter({ctx.code(node)}, {eqx}.is_array)")],
                   [("equinox", eqx)])


def _combine_advice(eqx: str, value_fn: cst.Arg | None) -> str:
    split = f"Split with `params, static = {eqx}.partition(model, {eqx}.is_array)`"
    if value_fn is not None and isinstance(value_fn.value, cst.Name):
        return (f"{split}, pass `params` and "
                f"`value_fn=lambda p: {value_fn.value.value}({eqx}.combine(p, static))`")
    return f"{split}, pass `params` and rebuild the model in `value_fn` with `{eqx}.combine(p, static)`"


def _describe(part: TransformValue) -> str:
    return f"`{part.name}`" if part.name == OPTAX_LBFGS else f"an optimizer with `{part.name}`"


def _harm(part: TransformValue, module: ModuleValue, method: str = "init") -> str:
    if module.leaves.kind != "callable":
        return "the line search may fail on them"
    return "it raises TypeError" if method == "update" else _INIT_ERROR[part.name]


def _missing_message(part: TransformValue, missing: list[str]) -> str:
    names = ", ".join(f"`{name}=`" for name in missing)
    plural = len(missing) > 1
    message = (f"`update` of {_describe(part)} runs a line search, which needs {names}: without "
               f"{'them' if plural else 'it'} `update` raises TypeError (missing {len(missing)} "
               f"required keyword-only argument{'s' if plural else ''})")
    return message


def _missing_advice(missing: list[str]) -> str:
    names = ", ".join(f"`{name}=`" for name in missing)
    advice = f"Pass {names}"
    if "value" in missing or "grad" in missing:
        advice += ("; `value, grad = optax.value_and_grad_from_state(value_fn)(params, "
                   "state=state)` computes both")
    return advice
