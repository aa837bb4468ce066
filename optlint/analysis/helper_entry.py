"""Where a value built by a helper enters the code that uses it: `tx = freeze_except(adam, p)`
then `tx.init(p)`. A rule proving a hazard of the value (an `optax.masked` used as the whole
optimizer) reports at that call, the place the caller chose the helper, with the helper's own
call as a role.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import CallSite
from optlint.analysis.values import FunctionValue, LibraryRef
from optlint.records import record

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator
    from optlint.context import RuleContext

# Libraries whose functions are no helpers of the checked code.
_LIBRARIES = ("optax.", "jax.", "equinox.", "flax.", "haiku.", "numpy.")


@record(eq=False)
class HelperEntry:
    call: cst.Call  # the helper's call, in the file being checked
    function: cst.FunctionDef  # the helper
    inference: Evaluator  # its file's

    def passes_through(self, expr: cst.BaseExpression | None) -> bool:
        """Whether `expr` (in the helper) is one of its parameters: what the caller gives."""
        params = self.function.params
        names = {param.name.value for param in (*params.posonly_params, *params.params,
                                                *params.kwonly_params)}
        return isinstance(expr, cst.Name) and expr.value in names


def helper_entry(ctx: RuleContext, used: cst.BaseExpression, site: CallSite
                 ) -> HelperEntry | None:
    """The call of a helper of the project that `used` (a name, or `self.x`) was assigned once
    in this file, when it is one (a function of this file, or one imported from another file of
    the project), with the inference of the helper's file; None otherwise."""
    assigned = _assigned_once(ctx, used, site)
    if not isinstance(assigned, cst.Call) or any(arg.star for arg in assigned.args):
        return None
    assigned_site = ctx.site_of(assigned)
    if assigned_site is None:
        return None
    callee = ctx.value(assigned.func, assigned_site)
    if isinstance(callee, FunctionValue) and isinstance(callee.node, cst.FunctionDef):
        return HelperEntry(assigned, callee.node, ctx.inference)
    project = ctx.inference.project
    if (not isinstance(callee, LibraryRef) or callee.name.startswith(_LIBRARIES)
            or project is None):
        return None
    found = project.resolve_function(callee.name, callee.origin or ctx.inference.path,
                                     lambda: True)
    if found is None or not isinstance(found[0].node, cst.FunctionDef):
        return None
    return HelperEntry(assigned, found[0].node, found[1])  # `from tune.freeze import f`


def _assigned_once(ctx: RuleContext, used: cst.BaseExpression,
                   site: CallSite) -> cst.BaseExpression | None:
    if isinstance(used, cst.Name):
        binding = ctx.binding(used.value, site)
        if binding is None or binding.kind != "assign" or binding.path:
            return None
        return binding.value
    scope = site.scope
    if (isinstance(used, cst.Attribute) and isinstance(used.value, cst.Name)
            and scope.owner is not None and used.value.value == scope.self_name):
        bindings = scope.owner.attributes.get(used.attr.value, [])
        if len(bindings) == 1 and not bindings[0].path:
            return bindings[0].value
    return None
