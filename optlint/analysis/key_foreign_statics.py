"""A static or class method of a class imported from another project file, called on the
class: `SO3.sample_uniform(key)` with `from cryojax.rotations import SO3` (cryojax 8a105bde,
which then split the same key). Alternative constructors taking a key (`sample_uniform`,
`from_key`, `random`) are how Equinox-style code builds random objects; the method is read
by its own file's key flow, as a module-level function of that file is (`key_foreign.py`).

A plain method called on the class is not followed (it is given an instance first, which the
call does not show), nor one the class inherits (which base defines it is another question).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.project_kinds import method_kinds
from optlint.analysis.project_files import LIBRARIES
from optlint.analysis.values import LibraryRef, Value

if TYPE_CHECKING:
    from optlint.analysis.key_foreign import ForeignFunctions
    from optlint.context import RuleContext


def foreign_static_method(ctx: RuleContext, foreign: ForeignFunctions,
                          func: cst.BaseExpression, value: Value | None
                          ) -> tuple[cst.FunctionDef, bool] | None:
    """The `@staticmethod` or `@classmethod` (bound: given the class first) that `func`, an
    attribute of a class of another project file (`value`: what its object evaluates to),
    names; None otherwise."""
    if not isinstance(func, cst.Attribute):
        return None
    project = ctx.inference.project
    if (project is None or not isinstance(value, LibraryRef)
            or value.name.split(".", 1)[0] in LIBRARIES):
        return None
    # The class's file is read though it never reaches the libraries: the call gives a key.
    found = project.resolve_class(value.name, value.origin or ctx.inference.path, gated=False)
    if found is None or getattr(found[1], "path", None) in (None, ctx.inference.path):
        return None
    info, evaluator = found
    for item in info.node.body.body:
        if isinstance(item, cst.FunctionDef) and item.name.value == func.attr.value:
            kinds = method_kinds(item)
            if not kinds or not foreign.owned(item, evaluator):
                return None
            return item, "classmethod" in kinds
    return None
