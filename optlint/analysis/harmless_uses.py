"""Words in a file that spell a function's name without using the function, so that counting
its uses (`parameters._invocations_in`: every use must be a call the analysis read, else the
function escapes and its parameters stay unknown) does not give up on them:

- `optimizer.update(...)` next to a `def update`: an attribute of some object, never the
  function (a function that is stored on an object is named bare where it is stored);
- `update = make_update(opt)` in another function: a new variable of that scope, whose own uses
  are counted all the same;
- `return update` in the factory that defines the closure, when every call of the factory is
  assigned to a variable of the same name: the closure's uses are then that variable's, which
  the count sees.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import FunctionInfo

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator


def harmless_uses(owner: Evaluator, function: cst.FunctionDef, info: FunctionInfo | None) -> int:
    """How many of the words `function.name` in its file are no use of this function (see the
    module's docstring); 0 for methods, which are reached as attributes."""
    if info is None or info.scope.owner is not None:
        return 0
    name = function.name.value
    defined_in = info.scope.parent
    count = len(owner.index.attributes.get(name, []))
    count += owner.index.assignments(name, outside=defined_in)
    factory = defined_in.node if defined_in is not None and defined_in.kind == "function" else None
    factory_info = owner.index.functions.get(factory) if factory is not None else None
    if isinstance(factory, cst.FunctionDef) and factory_info is not None:
        returns = sum(1 for value in factory_info.returns
                      if isinstance(value, cst.Name) and value.value == name)
        if returns and _every_call_assigned_to(owner, factory, name):
            count += returns
    return count


def _every_call_assigned_to(owner: Evaluator, factory: cst.FunctionDef, name: str) -> bool:
    """Whether the factory is called somewhere, and each call is the whole value assigned to a
    variable `name` in this file."""
    invocations = owner.invocations_of(factory)
    if not invocations:
        return False
    for path, site, _ in invocations:
        if path != owner.path or not any(
                binding.kind == "assign" and binding.value is site.node and not binding.path
                for binding in site.scope.bindings.get(name, [])):
            return False
    return True
