"""The class whose instance a name is, as the first parameter of a method or of a function
nested in one: `self.layer` in `def body(x): return self.layer.apply(...)` defined inside a
method is the method's `self` (a closure), unless the nested function binds `self` itself."""

from __future__ import annotations

from optlint.analysis.index import ClassInfo, Scope


def self_owner(scope: Scope | None, name: str) -> ClassInfo | None:
    """The class of the method whose first parameter `name` is, seen from `scope` (the
    method's own scope or a function nested in it that does not bind `name`)."""
    current = scope
    while current is not None and current.kind == "function":
        if current.self_name == name:
            return current.owner
        if name in current.bindings:
            return None
        current = current.parent
    return None
