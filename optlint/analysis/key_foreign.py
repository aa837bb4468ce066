"""Functions of other files of the project that a call hands a key to: a sampler imported from
the project's `utils.py`. Each is summarised by the key flow of its own file, so that what it
does with its key parameter is read with that file's imports and helpers.

The key flow of a file reached this way is made once per run: it is kept with that file's
evaluator (`Inference.derived`), which the project index keeps for every file a lookup parsed,
so every file importing the sampler reuses its summary rather than walking it again. Those
flows reach one another the same way, never the linted file's own flow (which lives only while
its file is checked), so two files calling each other's functions share one summary each and a
recursion stops."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import ClassInfo
from optlint.analysis.key_fields import called_method
from optlint.analysis.project_files import LIBRARIES
from optlint.analysis.values import ClassRef, LibraryRef, Value

# The name a file's key flow is kept by in its evaluator's `derived`.
_FLOW = "key_flow"
_BUILDING = object()  # kept there while the flow is being made

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
        """The module-level function of another project file that calling `value` runs, and
        whether it is bound (never: a method is not followed)."""
        project = self.ctx.inference.project
        if project is None:
            return None
        here = self.ctx.inference.path
        # Module-level functions only: a class's `__init__` often draws from its key on some
        # paths only (`if net is None: net = Net(key=key)`), which a summary cannot tell apart
        # from what the caller gives, so classes of other files are not followed.
        if not isinstance(value, LibraryRef) or value.name.split(".", 1)[0] in LIBRARIES:
            return None
        found = project.resolve_function(value.name, value.origin or here, lambda: True)
        if found is None or not isinstance(found[0].node, cst.FunctionDef):
            return None
        return self._owned(found[0].node, False, found[1])

    def project_class(self, value: Value) -> ClassRef | None:
        """The class of the project `value` names: of this file, or imported from another
        project file (`from psithuros.gpt2 import Gpt2LMHeadModel`)."""
        if isinstance(value, ClassRef):
            return value
        project = self.ctx.inference.project
        if (project is None or not isinstance(value, LibraryRef)
                or value.name.split(".", 1)[0] in LIBRARIES):
            return None
        found = project.resolve_class(value.name, value.origin or self.ctx.inference.path)
        return None if found is None else ClassRef(found[0], getattr(found[1], "path", None))

    def method(self, info: ClassInfo, path: str, name: str
               ) -> tuple[cst.FunctionDef, bool] | None:
        """The undecorated method `name` of a class of another project file (bound), for a
        value whose class is known by where it came from (an instance every caller gives): the
        class is named, so what its method does is read, not guessed from a call."""
        project = self.ctx.inference.project
        evaluator = project.evaluator_for(path) if project is not None else None
        owner = self._owner(evaluator) if evaluator is not None else None
        found = called_method(info, name, owner.ctx.qualify) if owner is not None else None
        if evaluator is None or found is None or found not in evaluator.index.functions:
            return None
        return self._owned(found, True, evaluator)

    def owned(self, node: cst.FunctionDef, evaluator: Evaluator) -> bool:
        """Whether `node`, a function of the file `evaluator` reads (nested or not), is now
        summarised by that file's key flow (`summary` of any flow of this chain reads it)."""
        return self._owned(node, False, evaluator) is not None

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
            derived = getattr(evaluator, "derived", None)
            kept = derived.get(_FLOW) if derived is not None else None
            if kept is _BUILDING:
                # Asked while its own flow is being made (two files whose classes call each
                # other's methods): not followed, rather than made again without end.
                return None
            if kept is None:
                context = replace(self.ctx, module=index.module_scope.node, index=index,
                                  inference=evaluator, filename=path, source=None)
                if derived is None:  # an evaluator keeping nothing: a flow for this chain
                    kept = self.make(context, self.owners)
                else:
                    # Its own chain of lookups: what it summarises depends on its file alone.
                    derived[_FLOW] = _BUILDING
                    try:
                        kept = derived[_FLOW] = self.make(context, {})
                    finally:
                        if derived.get(_FLOW) is _BUILDING:
                            del derived[_FLOW]
            self.owners[path] = kept
        return self.owners[path]

    def release(self) -> None:
        """Break the cycles of the flows of this chain that no evaluator keeps (the linted
        file's own among them): their walks hold their bound methods."""
        for owner in list(self.owners.values()):
            derived = getattr(getattr(owner, "ctx", None), "inference", None)
            kept = getattr(derived, "derived", {})
            if kept.get(_FLOW) is not owner:
                owner.__dict__.clear()
