"""Keys an object holds that a method of its class sets anew besides its constructor
(numpyro PR #479: `sampler.warmup(key)` stores `self._warmup_state`, the state whose key
`sampler.sample(n)` runs its chain from; `sample` never moves it on). Each call of `sample`
then draws the same numbers until the caller runs `warmup` again: the caller's walk forgets
`sampler._warmup_state` after `sampler.warmup(...)` (`set_by_method`), so two calls of `sample`
with no `warmup` between them draw from one key.

What is proven, by the class's statements: every binding of `self.<field>` is in a
constructor or in a method other than the drawing one, and no method of the class names such a
setter through its object (`self.warmup(...)`, `self.warmup` handed on): only the object's users
run them, in code their own walk reads."""

from __future__ import annotations

import libcst as cst

from optlint.analysis.index import ClassInfo
from optlint.analysis.walk import child_nodes

_CONSTRUCTORS = frozenset({"__init__", "__post_init__"})


def setters_besides_construction(owner: ClassInfo, field: str, method: cst.FunctionDef
                                 ) -> tuple[str, ...] | None:
    """The methods other than constructors that set `self.<field>` (empty: none), when only
    the object's users can run them and `method` is none of them; None otherwise."""
    bindings = owner.attributes.get(field, [])
    if not bindings and field not in owner.fields:
        return None
    setters: set[str] = set()
    for binding in bindings:
        node = binding.scope.node if binding.scope is not None else None
        if not isinstance(node, cst.FunctionDef) or node is method:
            return None
        if node.name.value not in _CONSTRUCTORS:
            setters.add(node.name.value)
    if setters and _named_through_object(owner, setters):
        return None
    return tuple(sorted(setters))


def _named_through_object(owner: ClassInfo, names: set[str]) -> bool:
    """Some method of the class names one of `names` on its first parameter (`self.warmup`)."""
    for item in owner.node.body.body:
        if not isinstance(item, cst.FunctionDef) or not item.params.params:
            continue
        self_name = item.params.params[0].name.value
        pending: list[cst.CSTNode] = [item.body]
        while pending:
            node = pending.pop()
            if (isinstance(node, cst.Attribute) and node.attr.value in names
                    and isinstance(node.value, cst.Name) and node.value.value == self_name):
                return True
            pending.extend(child_nodes(node))
    return False


def set_by_method(classes: list[ClassInfo], method: str | None) -> set[str]:
    """The attributes a method named `method` of any of `classes` sets on its object (None:
    any method but a constructor)."""
    return {field for owner in classes for field, bindings in owner.attributes.items()
            if any(binding.scope is not None and isinstance(binding.scope.node, cst.FunctionDef)
                   and (binding.scope.node.name.value == method if method is not None
                        else binding.scope.node.name.value not in _CONSTRUCTORS)
                   for binding in bindings)}
