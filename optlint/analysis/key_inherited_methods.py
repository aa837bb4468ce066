"""A method a class inherits from a base defined in another project file, called on the
object itself: `self._get_suffled_state(state, key, n)` in `class RubiksCube(Puzzle)`, where
`Puzzle` (imported from `core/puzzle_base.py`) defines it (PuXle f65fb90).

The evaluator follows bases of the file itself; this follows the class's whole method
resolution order (Python's C3, over the project's classes through imports and re-exports,
`project_values.py`): the first class of the order defining the name is what runs, so a method
the subclass overrides wins, and a library base met before it leaves the call unknown (it may
define the method). The object is the caller's own, so the keys the call gives are followed as
for a method of the file (`key_project_calls.py`), summarised by the base's own file.

Asked only of a call that gives a key to `self.<name>` whose value the evaluator cannot tell,
and only when another project file defines a method of that name (read from texts, no parse):
the base's file is parsed when a key reaches its method, not before. Answers are kept per class
and name."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import CallSite, ClassInfo, Scope
from optlint.analysis.project_methods import defined_elsewhere
from optlint.analysis.project_kinds import ProjectFunction
from optlint.analysis.project_values import ProjectValues

if TYPE_CHECKING:
    from optlint.context import RuleContext

# (the method, the class defining it, that class's file), or None: not inherited so.
Inherited = tuple[cst.FunctionDef, ClassInfo, str] | None


class InheritedMethods:
    """The methods the classes of one file inherit from project bases of other files."""

    def __init__(self, ctx: RuleContext, sites: dict[int, CallSite]) -> None:
        self.ctx = ctx
        self.sites = sites
        self._values: ProjectValues | None = None  # made at the first question
        self._found: dict[tuple[int, str], Inherited] = {}

    def method(self, call: cst.Call, site: CallSite) -> Inherited:
        """What `self.<name>(...)` runs when a base of another project file defines it."""
        func = call.func
        if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name):
            return None
        owner = _own_class(func.value.value, site.scope)
        if owner is None or not owner.bases:
            return None
        name = func.attr.value
        key = (id(owner.node), name)
        if key not in self._found:
            self._found[key] = self._look_up(owner, name)
        return self._found[key]

    def _look_up(self, owner: ClassInfo, name: str) -> Inherited:
        project = self.ctx.inference.project
        here = self.ctx.inference.path
        if project is None or here is None or not defined_elsewhere(project, name, here):
            return None  # no other project file defines a method of that name
        if self._values is None:
            self._values = ProjectValues(self.ctx.inference, self.sites)
        found = self._values.instance_method(owner, name)
        if not isinstance(found, ProjectFunction) or found.skipped != 1 or found.cls is not None:
            return None  # not a plain method (a static or class method: not its object's)
        path = getattr(found.file.evaluator, "path", None)
        if path is None:
            return None
        info = found.file.index.functions.get(found.node)
        defining = info.scope.owner if info is not None else None
        return None if defining is None else (found.node, defining, path)


def _own_class(name: str, scope: Scope | None) -> ClassInfo | None:
    """The class whose method binds `name` as its object (`self`), also from a function nested
    in that method, where nothing rebinds `name` on the way."""
    while scope is not None and scope.kind == "function":
        if scope.self_name is not None and scope.owner is not None:
            plain = isinstance(scope.node, cst.FunctionDef) and not any(
                isinstance(d.decorator, cst.Name)
                and d.decorator.value in ("staticmethod", "classmethod")
                for d in scope.node.decorators)
            return scope.owner if plain and scope.self_name == name else None
        if name in scope.bindings:
            return None
        scope = scope.parent
    return None
