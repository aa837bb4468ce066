"""Following a call into a helper function: in this file or in another file of the project.

What a helper returns can depend on what it is given (`def decay_mask(model): return
tree_map(..., model)`), so its parameters are bound to the call's arguments in a frame, and the
return is inferred under that frame, memoised per (helper, frame). A helper in another file is
inferred by that file's own evaluator, handed only values it can read there (`portable`).
A collaborator the evaluator owns, with its own memo of answers per frame.
"""

from __future__ import annotations

import weakref

import libcst as cst

from optlint.analysis.attributes import plain_method
from optlint.analysis.binding import bind_arguments
from optlint.analysis.branches import live_returns
from optlint.analysis.evaluator import Evaluator, owned_by
from optlint.analysis.index import LATER, FunctionInfo, Scope
from optlint.analysis.values import (
    UNKNOWN,
    ClassRef,
    FunctionValue,
    InstanceValue,
    LibraryRef,
    ModuleValue,
    OneOf,
    TransformValue,
    Value,
    portable,
)

_MAX_FOLLOWED = 40  # helper calls being followed into other files at once, at most
_MAX_FRAMES = 2000  # distinct (helper, arguments) pairs inferred per file, at most


class HelperReturns:
    def __init__(self, evaluator: Evaluator) -> None:
        self._evaluator = weakref.ref(evaluator)  # its owner (see `owned_by`)
        # (function node id, frame as (param id, value id) pairs) -> (frame, returned value)
        self._frame_results: dict[tuple[int, frozenset[tuple[int, int]]],
                                  tuple[dict[int, Value], Value]] = {}
        self._called_results: set[int] | None = None  # ids of calls whose result is called

    @property
    def evaluator(self) -> Evaluator:
        return owned_by(self._evaluator)

    @property
    def frames_inferred(self) -> int:
        """How many (helper, arguments) pairs were inferred: what the frame memo bounds."""
        return len(self._frame_results)

    def passed(self, function: FunctionValue, call: cst.Call, scope: Scope,
               order: int) -> dict[int, Value]:
        """What `call` passes the parameters of `function`, where it is known (by Param id)."""
        passed: dict[int, Value] = {}
        for param, expr in bind_arguments(function.node, call, function.bound):
            value = self.evaluator.value_of(expr, scope, order)
            if value is not UNKNOWN:
                passed[id(param)] = value
        return passed

    def project_call(self, callee: LibraryRef, call: cst.Call, scope: Scope,
                     order: int) -> Value:
        """A call to a function imported from another file of the project: what it returns for
        these arguments, inferred in its own file (which the caller's values are handed to)."""
        evaluator = self.evaluator
        project = evaluator.project
        if project is None or project.following > _MAX_FOLLOWED:
            return UNKNOWN  # a chain of helpers through many files: not worth following
        if self._called_results is None:
            self._called_results = {id(site.node.func) for site in evaluator.index.calls
                                    if isinstance(site.node.func, cst.Call)}
        if id(call) in self._called_results:
            # `helper(x)(y)`: what comes back from another file is handed over without the
            # functions and factories only that file can read (see `portable`); calling what
            # is left gives the rules nothing, and rules ask about every callee: not worth a parse.
            return UNKNOWN

        def arguments_reach() -> bool:
            # A file that never reaches equinox or optax can still pass on a module it is given.
            return any(isinstance(evaluator.value_of(arg.value, scope, order),
                                  (ModuleValue, TransformValue)) for arg in call.args)

        found = project.resolve_function(callee.name, callee.origin or evaluator.path,
                                         arguments_reach)
        if found is None:
            return UNKNOWN
        function, owner = found
        passed = self.passed(function, call, scope, order)
        elsewhere = owner is not evaluator
        if elsewhere:  # the other file reads only what it can read (see `portable`)
            handed = {param: portable(value) for param, value in passed.items()}
            passed = {param: value for param, value in handed.items() if value is not UNKNOWN}
        project.following += 1
        try:
            returned = owner.returned(function, passed)
        finally:
            project.following -= 1
        return portable(returned) if elsewhere else returned

    def method_call(self, func: cst.Attribute, call: cst.Call, scope: Scope,
                    order: int) -> Value | None:
        """`config.trainer.optimizer()` on an instance of a class of the project: what the
        method returns, inferred by the evaluator of the class's file, with `self` bound to the
        instance when its construction is seen (its config fields read as that construction
        gives them). None when the receiver is no such instance, or is one of this file whose
        construction is not seen (the class's own reading says as much)."""
        evaluator = self.evaluator
        receiver = evaluator.value_of(func.value, scope, order)
        if not isinstance(receiver, InstanceValue):
            return None
        owner = evaluator.evaluator_for(receiver.path)
        elsewhere = owner is not evaluator
        if not elsewhere and receiver.made is None:
            return None
        method = plain_method(receiver.info, func.attr.value)
        project = evaluator.project
        if method is None or not method.params.params or (
                elsewhere and (project is None or project.following > _MAX_FOLLOWED)):
            return None
        function = FunctionValue(method, bound=True)
        passed = self.passed(function, call, scope, order)
        if elsewhere:  # the other file reads only what it can read (see `portable`)
            passed = {param: portable(value) for param, value in passed.items()}
        passed = {param: value for param, value in passed.items() if value is not UNKNOWN}
        if receiver.made is not None:
            # `self`, for the fields its construction gives (a frame per construction: only
            # for instances whose construction is seen, not for every `self.helper()`).
            passed[id(method.params.params[0])] = receiver
        if not elsewhere:
            return self.returned(function, passed)
        assert project is not None
        project.following += 1
        try:
            returned = owner.returned(function, passed)
        finally:
            project.following -= 1
        return portable(returned)

    def returned(self, function: FunctionValue, passed: dict[int, Value] | None = None) -> Value:
        info = self.evaluator.index.functions.get(function.node)
        if info is None:
            return UNKNOWN
        if passed:
            frame = {**self.evaluator.frame, **passed}
            # Helpers calling helpers with the same values would otherwise be re-inferred along
            # every path through them (exponential in the chain's length): one answer per
            # (function, frame). The frame is kept in the entry so the ids stay its values'.
            key = (id(function.node), frozenset((param, id(value))
                                                for param, value in frame.items()))
            known = self._frame_results.get(key)
            if known is not None:
                return known[1]
            if len(self._frame_results) >= _MAX_FRAMES:
                return UNKNOWN  # a file whose helpers fan out without end: stop asking
            value = self.evaluator.in_frame(frame, lambda: self._first_return(info))
            self._frame_results[key] = (frame, value)
            return value
        return self._first_return(info)

    def _first_return(self, info: FunctionInfo) -> Value:
        """What the function returns: when every `return` gives a transformation (a factory
        choosing by its config), one of them; else the first return the analysis can read."""
        evaluator = self.evaluator
        values: list[Value] = []
        live = (live_returns(info.node, lambda test: evaluator.value_of(test, info.scope, LATER))
                if isinstance(info.node, cst.FunctionDef) and len(info.returns) > 1 else None)
        for position, expr in enumerate(info.returns):
            if live is not None and id(expr) not in live:
                continue  # a branch its known configuration does not take
            value = evaluator.value_of(expr, info.scope, LATER)
            if isinstance(value, ModuleValue):
                return self._modules_returned(info, position, value)
            if value is not UNKNOWN and not isinstance(value, TransformValue):
                return value  # the other returns are not read: they cost a walk each
            values.append(value)
        known = [value for value in values if value is not UNKNOWN]
        if not known:
            return UNKNOWN
        distinct = {id(value) for value in values}
        return OneOf(tuple(values)) if len(distinct) > 1 else known[0]

    def _modules_returned(self, info: FunctionInfo, first: int, module: ModuleValue) -> Value:
        """A model factory's returns (`if cfg.kind == "mlp": return MLP(...)`; `return CNN(...)`):
        one of the modules when they differ. Only returns that construct a module directly are
        read (a helper call there would be followed along every path); any other leaves the
        first module, as before."""
        options: list[Value] = [module]
        for expr in info.returns[first + 1:]:
            if not isinstance(expr, cst.Call):
                return module
            callee = self.evaluator.value_of(expr.func, info.scope, LATER)
            if not (isinstance(callee, ClassRef) or (isinstance(callee, LibraryRef)
                                                     and callee.name.startswith("equinox.nn."))):
                return module
            options.append(self.evaluator.value_of(expr, info.scope, LATER))
        if all(option == module for option in options):
            return module
        return OneOf(tuple(options))
