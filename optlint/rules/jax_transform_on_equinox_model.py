"""OPT006 jax-transform-on-equinox-model: `jax.jit` / `jax.grad` over a function given an Equinox module.

`jax.jit` turns every argument leaf into an abstract array and `jax.grad` differentiates every leaf of
its `argnums` arguments; an activation function stored in the model (as `eqx.nn.MLP` does) is neither,
so both raise TypeError. `eqx.filter_jit` / `eqx.filter_grad` / `eqx.filter_value_and_grad` trace or
differentiate the array leaves and keep the rest static.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.binding import positional_params
from optlint.analysis.callsites import Arrival, CallSites
from optlint.analysis.transform_sites import TransformSite, transform_sites
from optlint.analysis.values import ModuleValue, breaks, unfiltered_module
from optlint.context import RuleContext
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck
from optlint.rule_helpers.phrases import leaves_phrase

# Keywords the Equinox counterpart accepts with the same meaning.
_PORTABLE_KEYWORDS = {"jit": set(), "grad": {"has_aux"}}


class JaxTransformOnEquinoxModel(Rule):
    code = "OPT006"
    runtime_check = RuntimeCheck("function")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        callsites = CallSites(ctx.index, ctx.inference)
        for site in transform_sites(ctx.index, ctx.inference, callsites):
            traced = _traced_params(site)
            if traced is None:
                continue  # `static_argnums=config.static`: which arguments are traced is unknown
            for param in traced:
                arrival = _module_reaching(site, param, callsites,
                                           apis.JAX_FUNCTION_TRANSFORMS[site.transform])
                if arrival is not None:
                    module, passed = arrival
                    finding = self._finding(ctx, site, param, module)
                    if passed is not None and ctx.site_of(passed) is not None:
                        finding.roles["call"] = passed  # where the module enters
                    yield finding
                    break

    def _finding(self, ctx: RuleContext, site: TransformSite, param: str,
                 module: ModuleValue) -> Finding:
        eqx = ctx.import_alias("equinox", "eqx")
        counterpart = f"{eqx}.{apis.EQUINOX_COUNTERPARTS[site.transform]}"
        kind = apis.JAX_FUNCTION_TRANSFORMS[site.transform]
        transform = site.transform  # canonical spelling, whatever alias the file uses
        harm = _harm(transform, kind, module)
        verb = "traces" if kind == "jit" else "differentiates"
        message = (f"`{transform}` {verb} `{param}` of {_function_name(site.function)}, given "
                   f"Equinox module {module.class_name}, which {leaves_phrase(module)}: {harm}")
        advice = f"Use `{counterpart}`"
        portable = _PORTABLE_KEYWORDS[kind]
        unportable = [arg for arg in site.keywords
                      if arg.keyword is None or arg.keyword.value not in portable]
        # `jax.value_and_grad(loss, 0, True)`: the Equinox counterpart takes its options by
        # keyword only, so arguments by position have no counterpart as written.
        unportable += site.positional
        node: cst.CSTNode = site.reference if site.reference is not None else site.function
        traced = next(p.name for p in _all_params(site.function) if p.name.value == param)
        roles: dict[str, cst.CSTNode] = {"traced": traced}
        if unportable or site.reference is None:
            names = "/".join(dict.fromkeys(
                f"`{arg.keyword.value}`" if arg.keyword else "`**`" if arg.star == "**"
                else "arguments by position" for arg in unportable))
            advice += (", which makes non-array leaves static by itself" if kind == "jit" else
                       ", which differentiates the first argument")
            advice += f" ({names} has no one-to-one counterpart)" if names else ""
            return Finding(node, message, fix_title=advice, roles=roles)
        fix = FixPlan("safe", advice, [(site.reference, counterpart)],
                      [("equinox", eqx)])
        return Finding(node, message, fix, roles=roles)


def _all_params(function: cst.FunctionDef | cst.Lambda) -> list[cst.Param]:
    params = function.params
    return [*params.posonly_params, *params.params, *params.kwonly_params]


def _traced_params(site: TransformSite) -> list[str] | None:
    """The parameters the transformation traces (jit) or differentiates (grad), in order."""
    positional = [param.name.value for param in positional_params(site.function)]
    if apis.JAX_FUNCTION_TRANSFORMS[site.transform] == "grad":
        argnums = site.keyword("argnums")
        if argnums is None and site.positional:  # `jax.grad(loss, 1)`: argnums by position
            argnums = site.positional[0]
        numbers = _int_set(argnums.value) if argnums is not None else {0}
        if numbers is None:
            return None
        return [name for i, name in enumerate(positional) if i in numbers or i - len(positional)
                in numbers]
    if any(arg.star == "**" for arg in site.keywords):
        return None
    static_nums = site.keyword("static_argnums")
    static_names = site.keyword("static_argnames")
    numbers = _int_set(static_nums.value) if static_nums is not None else set()
    names = _str_set(static_names.value) if static_names is not None else set()
    if numbers is None or names is None:
        return None
    keyword_only = [param.name.value for param in site.function.params.kwonly_params]
    return [name for i, name in enumerate(positional)
            if i not in numbers and i - len(positional) not in numbers and name not in names
            ] + [name for name in keyword_only if name not in names]


def _module_reaching(site: TransformSite, param: str, callsites: CallSites,
                     kind: str) -> tuple[ModuleValue, cst.Call | None] | None:
    """The first module that breaks the transformation among those reaching `param`, and the
    call that passes it (None: the parameter's annotation)."""
    arrivals: list[Arrival] = []
    for invocation in site.invocations:
        arrivals.extend(callsites.arrivals_at(invocation.site, site.function, param))
    # Last: what the parameter holds by itself (its annotation, or what every caller passes),
    # so a module that a call passes is reported with that call.
    annotated = callsites.annotated_value(site.function, param)
    if isinstance(annotated, ModuleValue):
        arrivals.append(Arrival(annotated, None))
    for arrival in arrivals:
        module = unfiltered_module(arrival.value)
        # Which leaves break tracing or differentiation is the Equinox leaf model's answer.
        if module is not None and breaks(module.leaves, "jit" if kind == "jit" else "grad"):
            return module, arrival.site.node if arrival.site is not None else None
    return None


def _harm(transform: str, kind: str, module: ModuleValue) -> str:
    """What the transformation does with the leaves that break it (apis.SCALAR_LEAVES_BREAK)."""
    types = module.leaves.scalar_types
    if module.leaves.kind == "callable":
        return f"`{transform}` raises TypeError"
    if kind == "jit" and "branch" in types:
        return (f"`{transform}` traces the layer's bool `inference`, which its `__call__` tests "
                f"in Python: TracerBoolConversionError")
    if kind == "jit":
        return f"`{transform}` raises TypeError (a string leaf is not a JAX type)"
    return (f"`{transform}` raises TypeError (grad requires real- or complex-valued inputs; "
            f"the module holds a bool, int or str)")


def _int_set(node: cst.BaseExpression) -> set[int] | None:
    items = node.elements if isinstance(node, (cst.Tuple, cst.List)) else [node]
    found: set[int] = set()
    for item in items:
        expr = item.value if isinstance(item, cst.BaseElement) else item
        negative = isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus)
        if isinstance(expr, cst.UnaryOperation) and negative:
            expr = expr.expression
        if not isinstance(expr, cst.Integer):
            return None
        found.add(-int(expr.value) if negative else int(expr.value))
    return found


def _str_set(node: cst.BaseExpression) -> set[str] | None:
    items = node.elements if isinstance(node, (cst.Tuple, cst.List)) else [node]
    found: set[str] = set()
    for item in items:
        expr = item.value if isinstance(item, cst.BaseElement) else item
        if not isinstance(expr, cst.SimpleString) or not isinstance(expr.evaluated_value, str):
            return None
        found.add(expr.evaluated_value)
    return found


def _function_name(function: cst.FunctionDef | cst.Lambda) -> str:
    return f"`{function.name.value}`" if isinstance(function, cst.FunctionDef) else "the lambda"
