"""The classes of the file whose instances a loop's item is: `block` of `for block, k in
zip(self.blocks, keys)` where `__init__` built `self.blocks = [Block(cfg, key=k) for k in ...]`.
A list of layers is the common shape of an Equinox or plain-JAX model; calling an item runs its
class's `__call__`."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.brains.python_calls import paired_iterables
from optlint.analysis.enclosing_self import self_owner
from optlint.analysis.index import CallSite, ClassInfo
from optlint.analysis.values import ClassRef

if TYPE_CHECKING:
    from optlint.context import RuleContext


def item_classes(ctx: RuleContext, item: cst.Name, site: CallSite) -> list[ClassInfo] | None:
    """The classes of the file the items of the collection `item` loops over are built from,
    each item a call of one of them (None: not told)."""
    binding = ctx.binding(item.value, site)
    loop = binding.node if binding is not None else None
    if not isinstance(loop, (cst.For, cst.CompFor)):
        return None
    collection = _collection(loop.target, loop.iter, item.value)
    if collection is None:
        return None
    built = _built_items(ctx, collection, site)
    if not built:
        return None
    classes: list[ClassInfo] = []
    for call in built:
        call_site = ctx.site_of(call)
        value = ctx.value(call.func, call_site) if call_site is not None else None
        if not isinstance(value, ClassRef) or value.path != ctx.inference.path:
            return None
        if value.info not in classes:
            classes.append(value.info)
    return classes


def _collection(target: cst.BaseExpression, iterable: cst.BaseExpression, name: str
                ) -> cst.BaseExpression | None:
    """What `name`, bound by the loop target, is an item of: `xs` of `for x in xs`, of
    `zip(xs, ys)` for `x, y`, of `enumerate(xs)` for `i, x`."""
    if isinstance(target, cst.Name):
        return iterable if target.value == name else None
    if not isinstance(target, (cst.Tuple, cst.List)) or not isinstance(iterable, cst.Call):
        return None
    position = next((index for index, element in enumerate(target.elements)
                     if isinstance(element.value, cst.Name) and element.value.value == name), None)
    paired = paired_iterables(iterable)
    if position is None or paired is None or not paired[1]:
        return None
    builtin, iterables = paired
    if builtin == "zip" and position < len(iterables):
        return iterables[position]
    return iterables[0] if builtin == "enumerate" and position == 1 else None


def _built_items(ctx: RuleContext, collection: cst.BaseExpression, site: CallSite
                 ) -> list[cst.Call] | None:
    """The calls that build the items of `collection`: a name or `self.<field>` bound only
    to lists of calls (`[Block(k) for k in keys]`, `[Block(k1), Block(k2)]`)."""
    if isinstance(collection, cst.Name):
        binding = ctx.binding(collection.value, site)
        values = [binding.value] if binding is not None and binding.kind == "assign" and (
            not binding.path) else None
    elif isinstance(collection, cst.Attribute) and isinstance(collection.value, cst.Name):
        owner = self_owner(site.scope, collection.value.value)
        bindings = owner.attributes.get(collection.attr.value, []) if owner is not None else []
        values = [binding.value for binding in bindings if not binding.path] if bindings and all(
            not binding.path for binding in bindings) else None
    else:
        return None
    calls: list[cst.Call] = []
    for value in values or ():
        if isinstance(value, cst.ListComp) and isinstance(value.elt, cst.Call):
            calls.append(value.elt)
        elif isinstance(value, (cst.List, cst.Tuple)) and value.elements and all(
                isinstance(element.value, cst.Call) for element in value.elements):
            calls.extend(element.value for element in value.elements
                         if isinstance(element.value, cst.Call))
        else:
            return None
    return calls or None
