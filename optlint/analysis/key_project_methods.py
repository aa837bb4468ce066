"""The project files defining a method, for a call of it on an object of unknown class that
neither the file nor the modules it imports define (deepqmc 8906b58: `self.hamil.init_sample(
rng, ...)` in `sampling.py`, whose Hamiltonians are built by the caller from `hamil/qc.py` and
`hamil/qho.py`, modules it never imports). Only for an object the caller hands in (`injected`).
Every class of those files defining the method must
draw from the argument (`key_imported_methods.py`); a name many files define (`apply`,
`sample` across a large project) is not read: one interface among many, and parses to pay."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.enclosing_self import self_owner
from optlint.analysis.index import Binding, CallSite, Scope
from optlint.analysis.project_methods import files_defining

if TYPE_CHECKING:
    from optlint.context import RuleContext

# More files defining the name than this: not read (each is parsed and summarised).
_MOST_FILES = 4


def project_files_defining(ctx: RuleContext, name: str) -> list[str] | None:
    """The project files other than the file's own that define a method `name` (None: too
    many, or the project cannot be read)."""
    project = ctx.inference.project
    paths = files_defining(project, name) if project is not None else None
    if project is None or paths is None or len(paths) > _MOST_FILES:
        return None
    here = ctx.inference.path
    real_here = project.real_path(here) if here is not None else None
    return sorted(str(path) for path in paths if path != real_here)


def injected(ctx: RuleContext, receiver: cst.BaseExpression, site: CallSite) -> bool:
    """`receiver` is an object the caller hands in: a parameter of the function (`hamil`), an
    attribute of `self` that the class sets only from parameters (`self.hamil = hamil`), an
    attribute of either (`self.networks.dist`: the caller's object's part), or a local naming
    one (`dist = self.networks.dist`, jumanji's A2C agent, read in a closure over it).
    An object the file makes itself (`buffer = fbx.make_flat_buffer(...)`) is a library's or
    the file's own, never some class of another project file that happens to share the name."""
    if isinstance(receiver, cst.Name):
        binding = ctx.binding(receiver.value, site)
        if binding is None:
            return False
        if binding.kind == "param":
            return True
        return (binding.kind == "assign" and not binding.path and binding.scope is not None
                and isinstance(binding.value, cst.Attribute)
                and _part_handed_in(binding.value, binding.scope))
    return isinstance(receiver, cst.Attribute) and _part_handed_in(receiver, site.scope)


def _part_handed_in(attribute: cst.Attribute, scope: Scope) -> bool:
    """`a.b...` read in `scope`, where `a` is a parameter other than `self`, or `self.b` is set
    only from parameters."""
    while isinstance(attribute.value, cst.Attribute):
        attribute = attribute.value
    if not isinstance(attribute.value, cst.Name):
        return False
    base = attribute.value.value
    owner = self_owner(scope, base)
    if owner is None:
        found = _bindings_seen(scope, base)
        return bool(found) and all(each.kind == "param" for each in found)
    bindings = owner.attributes.get(attribute.attr.value, [])
    return bool(bindings) and all(_a_parameter(binding) for binding in bindings)


def _bindings_seen(scope: Scope | None, name: str) -> list[Binding]:
    """The bindings of `name` in the nearest function scope binding it, from `scope` out (a class
    body's names are not seen from its methods)."""
    while scope is not None and scope.kind != "module":
        if scope.kind == "function" and name in scope.bindings:
            return scope.bindings[name]
        scope = scope.parent
    return []


def _a_parameter(binding: Binding) -> bool:
    value, scope = binding.value, binding.scope
    if binding.path or not isinstance(value, cst.Name) or scope is None:
        return False
    found = scope.bindings.get(value.value, [])
    return bool(found) and all(each.kind == "param" for each in found)
