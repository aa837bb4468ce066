"""A method a class inherits from a base defined in another project file, called on the
object itself: `self._get_suffled_state(state, key, n)` in `class RubiksCube(Puzzle)`, where
`Puzzle` (imported from `core/puzzle_base.py`) defines it (PuXle f65fb90).

The evaluator follows bases of the file itself; where it cannot tell `self.<name>`, the class
whose method the call is in is the object's, and `key_object_methods.py` reads its whole method
resolution order (Python's C3, over the project's classes through imports and re-exports): the
first class of the order defining the name is what runs, so a method the subclass overrides
wins, and a library base met before it leaves the call unknown (it may define the method).

Asked only of a call that gives a key to `self.<name>` whose value the evaluator cannot tell,
and only when another project file defines a method of that name (read from texts, no parse):
the base's file is parsed when a key reaches its method, not before."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.enclosing_self import self_owner
from optlint.analysis.index import CallSite, ClassInfo, Scope
from optlint.analysis.project_kinds import method_kinds
from optlint.analysis.project_methods import defined_elsewhere

if TYPE_CHECKING:
    from optlint.context import RuleContext


def inherited_receiver(ctx: RuleContext, call: cst.Call, site: CallSite
                       ) -> tuple[ClassInfo, str] | None:
    """The class (and its file, this one) of the object `self.<name>(...)` is called on, when
    a base of another project file may define `name`."""
    func = call.func
    if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name):
        return None
    owner = own_class(func.value.value, site.scope)
    here = ctx.inference.path
    if (owner is None or not owner.bases or here is None
            or not defined_elsewhere(ctx.inference.project, func.attr.value, here)):
        return None
    return owner, here


def own_class(name: str, scope: Scope | None) -> ClassInfo | None:
    """The class whose method binds `name` as its object (`self`), also from a function nested
    in that method, where nothing rebinds `name` on the way; not in a static or class method."""
    owner = self_owner(scope, name)
    method = scope
    while method is not None and method.self_name is None:
        method = method.parent
    if owner is None or method is None or not isinstance(method.node, cst.FunctionDef):
        return None
    return None if method_kinds(method.node) else owner
