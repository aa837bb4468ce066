"""Functions and classes of other files of the project that a call hands a key to: a sampler
imported from the project's `utils.py`, a model class built with `key=` in `train.py` and
defined in `models.py`. Each is summarised by the key flow of its own file, so that what it
does with its key parameter is read with that file's imports and helpers.

The key flows of the files reached this way are shared along one chain of lookups (`owners`),
so two files calling each other's functions reuse one summary each and a recursion stops."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_syntax import own_method
from optlint.analysis.project_files import LIBRARIES
from optlint.analysis.values import ClassRef, InstanceValue, LibraryRef, Value

if TYPE_CHECKING:
    from optlint.analysis.evaluator import Evaluator
    from optlint.analysis.key_calls_view import KeyCallsView
    from optlint.context import RuleContext


class ForeignFunctions:
    """The functions of other project files that calls of one file run, and the key flows of
    those files (`make` builds one for a file's context)."""

    def __init__(self, ctx: RuleContext, make: Callable[[RuleContext, dict[str, KeyCallsView]],
                                                         KeyCallsView],
                 owners: dict[str, KeyCallsView]) -> None:
        self.ctx = ctx
        self.make = make
        self.owners = owners  # the key flow of each file met so far, by its path
        # The key flow that summarises each foreign function met, by the function's id.
        self.owner_of: dict[int, KeyCallsView] = {}

    def function(self, value: Value) -> tuple[cst.FunctionDef, bool] | None:
        """The function of another project file that calling `value` runs (a module-level
        function, a class's `__init__`, an instance's `__call__`), and whether it is bound."""
        project = self.ctx.inference.project
        if project is None:
            return None
        here = self.ctx.inference.path
        if isinstance(value, LibraryRef):
            if value.name.split(".", 1)[0] in LIBRARIES:
                return None
            made = project.resolve_class(value.name, value.origin or here, gated=False)
            if made is None:
                found = project.resolve_function(value.name, value.origin or here, lambda: True)
                if found is None or not isinstance(found[0].node, cst.FunctionDef):
                    return None
                return self._owned(found[0].node, False, found[1])
            value = ClassRef(made[0], made[1].path)  # a class of another file built
        if (not isinstance(value, (InstanceValue, ClassRef)) or value.path is None
                or value.path == here):
            return None
        method = own_method(value.info, "__call__" if isinstance(value, InstanceValue)
                            else "__init__")
        evaluator = project.evaluator_for(value.path)
        if method is None or evaluator is None:
            return None
        return self._owned(method, True, evaluator)

    def _owned(self, node: cst.FunctionDef, bound: bool, evaluator: Evaluator
               ) -> tuple[cst.FunctionDef, bool] | None:
        owner = self._owner(evaluator)
        if owner is None:
            return None
        self.owner_of[id(node)] = owner
        return node, bound

    def _owner(self, evaluator: Evaluator) -> KeyCallsView | None:
        path = getattr(evaluator, "path", None)
        index = getattr(evaluator, "index", None)
        if path is None or index is None or not isinstance(index.module_scope.node, cst.Module):
            return None
        if path not in self.owners:
            context = replace(self.ctx, module=index.module_scope.node, index=index,
                              inference=evaluator, filename=path, source=None)
            self.owners[path] = self.make(context, self.owners)
        return self.owners[path]
