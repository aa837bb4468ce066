"""OPT011 filtered-model-as-model: a model rebuilt from `eqx.filter`'s arrays and then called.

`eqx.filter(model, eqx.is_array)` (and `partition`'s first half) replaces every non-array field
with None. Mapping an update over it (`jax.tree_util.tree_map(lambda p, g: p - lr * g, params,
grads)`) gives a tree of the model's class whose functions and Python scalars are still None;
calling it as the model silently drops a `use_relu` switch (None reads as False) or raises on a
missing activation. `eqx.combine(new_params, model)` or `eqx.apply_updates(model, updates)` put
the non-array fields back.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.binding import argument
from optlint.analysis.index import CallSite
from optlint.analysis.library_names import EQUINOX_FILTER_CALLS as _FILTERS, EQUINOX_PREFIX
from optlint.analysis.passed import passed_value
from optlint.analysis.values import ModuleValue, TransformedFunction, Value
from optlint.context import RuleContext
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck


class FilteredModelAsModel(Rule):
    code = "OPT011"
    # The rebuilt expression is evaluated; the probe reports the fields it holds None in.
    runtime_check = RuntimeCheck("value", probe="filtered_fields:no_missing_fields")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        reported: set[int] = set()
        for site, called in ctx.callees():
            callee = _called_module(called)
            if not (isinstance(callee, ModuleValue) and callee.filtered
                    and callee.made_by is not None):
                continue
            rebuilt = callee.made_by if callee.derived_by in apis.TREE_REBUILDERS else None
            if rebuilt is not None and ctx.site_of(rebuilt) is None:
                rebuilt = None  # built in another file: report where it is called
            anchor: cst.CSTNode = rebuilt if rebuilt is not None else site.node.func
            if id(anchor) in reported:
                continue
            origin = _filter_of(ctx, callee)
            if origin is None:
                continue
            filter_call, model = origin
            if model.leaves.kind == "arrays":
                continue  # nothing was replaced by None
            reported.add(id(anchor))
            yield self._finding(ctx, anchor, rebuilt, filter_call, model, site.node)
        yield from self._replaced_models(ctx, reported)

    def _replaced_models(self, ctx: RuleContext, reported: set[int]) -> Iterator[Finding]:
        """`model = tree_map(f, eqx.filter(model, eqx.is_array), grads)`: the model's own name
        now holds the filtered tree, so wherever it is used as the model next (the loop's next
        step, the caller given it back), its non-array fields are None."""
        for site in ctx.calls_where((), apis.TREE_REBUILDERS.__contains__):
            if id(site.node) in reported or ctx.qualify(site.node.func) not in apis.TREE_REBUILDERS:
                continue
            rebuilt = ctx.value(site.node, site)
            if not (isinstance(rebuilt, ModuleValue) and rebuilt.filtered
                    and rebuilt.made_by is site.node):
                continue
            origin = _filter_of(ctx, rebuilt)
            if origin is None:
                continue
            filter_call, model = origin
            pytree = argument(filter_call, 0, "pytree")
            filter_site = ctx.site_of(filter_call)
            if (model.leaves.kind == "arrays" or pytree is None or filter_site is None
                    or not _assigned_to(ctx, site, pytree.value, filter_site)):
                continue
            reported.add(id(site.node))
            yield self._finding(ctx, site.node, site.node, filter_call, model, None)

    def _finding(self, ctx: RuleContext, anchor: cst.CSTNode, rebuilt: cst.Call | None,
                 filter_call: cst.Call, model: ModuleValue, called: cst.Call | None) -> Finding:
        eqx = ctx.import_alias("equinox", "eqx")
        how = (f"rebuilt by `{ctx.code(rebuilt.func)}` from" if rebuilt is not None
               else "built from")
        arrays = f"`{ctx.code(filter_call.func)}(...)`'s arrays"
        if ctx.site_of(filter_call) is None:
            how, arrays = "built in another file from", (
                f"a filtered model's arrays (`{ctx.code(filter_call.func)}(...)`)")
        source = _source_name(ctx, rebuilt, filter_call) if rebuilt is not None else None
        fields = (f"its non-array fields ({model.leaves.reason})" if model.leaves.reason
                  else "its non-array fields")
        if not model.leaves.non_array:
            fields = "any non-array fields it has (its fields could not all be resolved)"
        if called is not None:
            message = (f"`{ctx.code(called.func)}` is called as Equinox module "
                       f"{model.class_name}, but it was {how} {arrays} without "
                       f"`{eqx}.combine`: {fields} are None there, so {_harm(model)}")
        else:
            message = (f"Equinox module {model.class_name} is replaced by a tree {how} "
                       f"{arrays} without `{eqx}.combine`: "
                       f"{fields} are None there, so where it is used as the model next, "
                       f"{_harm(model)}")
        fix = None
        if rebuilt is not None and source is not None:
            fix = FixPlan("safe", f"Recombine with `{eqx}.combine(..., {source})`",
                          [(rebuilt, f"{eqx}.combine({ctx.code(rebuilt)}, {source})")],
                          [("equinox", eqx)])
        unseen = None if model.leaves.non_array else "which of the module's fields are not arrays"
        return Finding(anchor, message, fix, unproven=unseen,
                       fix_title=f"Recombine with `{eqx}.combine(..., {source or 'model'})`",
                       roles={"call": rebuilt} if rebuilt is not None else {})


def _harm(model: ModuleValue) -> str:
    if model.leaves.kind == "callable":
        return "calling it raises TypeError ('NoneType' object is not callable)"
    return "it silently computes something else (a None switch reads as False) or raises TypeError"


def _called_module(callee: Value) -> Value:
    """What a call runs: through `jax.vmap(model)`, the module."""
    if isinstance(callee, TransformedFunction) and (
            callee.transform in apis.VECTORIZING_TRANSFORMS):
        return callee.func
    return callee


def _assigned_to(ctx: RuleContext, site: CallSite, model: cst.BaseExpression,
                 filter_site: CallSite) -> bool:
    """Whether the call at `site` is the whole value assigned to `model` (a name of the same
    scope as the filter's, or `self.attr` in a method): the model replaced by the rebuilt tree."""
    if isinstance(model, cst.Name):
        if filter_site.scope is not site.scope:
            return False
        return any(binding.value is site.node and not binding.path
                   for binding in site.scope.bindings.get(model.value, []))
    owner = site.scope.owner
    if (isinstance(model, cst.Attribute) and isinstance(model.value, cst.Name)
            and model.value.value == site.scope.self_name and owner is not None
            and filter_site.scope.owner is owner):
        return any(binding.value is site.node and binding.scope is site.scope
                   for binding in owner.attributes.get(model.attr.value, []))
    return False


def _filter_of(ctx: RuleContext, value: ModuleValue) -> tuple[cst.Call, ModuleValue] | None:
    """The `eqx.filter`/`partition` call a filtered pytree comes from (through tree maps in this
    file), and the module it filtered; when a step is in another file, the last call seen and
    the module the analysis carried from the filter (None when it did not)."""
    for _ in range(8):
        call = value.made_by
        site = ctx.site_of(call) if call is not None else None
        if call is None or site is None:
            if call is None or value.source is None or value.source.derived_by is not None:
                return None
            return call, value.source
        if value.derived_by in _FILTERS:
            pytree = argument(call, 0, "pytree")
            model = ctx.value(pytree.value, site) if pytree is not None else None
            if isinstance(model, ModuleValue) and model.derived_by is None:
                return call, model
            return None
        if value.derived_by not in apis.TREE_REBUILDERS:
            return None
        keyword = ("pytree" if "tree_at" in value.derived_by else
                   "tree" if value.derived_by in apis.TREE_MAPPERS else
                   "model" if value.derived_by.startswith(EQUINOX_PREFIX) else "params")
        inner = passed_value(call, apis.TREE_REBUILDERS[value.derived_by], keyword,
                             partial(ctx.value, site=site))
        if not (isinstance(inner, ModuleValue) and inner.filtered):
            return None
        value = inner
    return None


def _source_name(ctx: RuleContext, rebuilt: cst.Call, filter_call: cst.Call) -> str | None:
    """The name of the filtered model, when it still names that model where it was rebuilt:
    then `eqx.combine(rebuilt, name)` fills the None fields back from it."""
    pytree = argument(filter_call, 0, "pytree")
    filter_site, rebuilt_site = ctx.site_of(filter_call), ctx.site_of(rebuilt)
    if (pytree is None or not isinstance(pytree.value, cst.Name) or filter_site is None
            or rebuilt_site is None or filter_site.scope is not rebuilt_site.scope):
        return None
    name = pytree.value.value
    if ctx.binding(name, filter_site) is not ctx.binding(name, rebuilt_site):
        return None
    return name
