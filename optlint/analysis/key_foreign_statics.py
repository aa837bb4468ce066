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

from optlint.analysis.binding import bind_arguments
from optlint.analysis.key_syntax import reads_as_key
from optlint.analysis.project_kinds import method_kinds
from optlint.analysis.project_files import LIBRARIES
from optlint.analysis.values import LibraryRef, Value

if TYPE_CHECKING:
    from optlint.analysis.key_foreign import ForeignFunctions
    from optlint.context import RuleContext


def foreign_static_method(ctx: RuleContext, foreign: ForeignFunctions, call: cst.Call,
                          value: Value | None) -> tuple[cst.FunctionDef, bool] | None:
    """The `@staticmethod` or `@classmethod` (bound: given the class first) that `call` runs,
    an attribute of a class of another project file (`value`: what its object evaluates to),
    where the call gives it something that reads as a key; None otherwise."""
    func = call.func
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
            bound = "classmethod" in kinds
            # What its file's key flow costs to make is spent only where a key reaches it.
            if not kinds or not _gives_key(item, call, bound) or not foreign.owned(item, evaluator):
                return None
            return item, bound
    return None


def _gives_key(method: cst.FunctionDef, call: cst.Call, bound: bool) -> bool:
    """`call` gives `method` a parameter something that reads as a key (`key=k`, `rng`)."""
    return any((isinstance(expr, cst.Name) and reads_as_key(expr.value))
               or reads_as_key(param.name.value)
               for param, expr in bind_arguments(method, call, bound))
