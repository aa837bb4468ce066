"""A method of a class of the file run by a library call naming it: flax.linen
`model.apply(variables, x, key, method=Model.sample)` runs `Model.sample(x, key)`, so it
consumes what `sample` consumes of the arguments it passes on (the rows: `METHOD_RUNNERS` in
`key_consumers.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.index import CallSite, ClassInfo
from optlint.analysis.key_model_objects import METHOD_RUNNERS
from optlint.analysis.prng_keys import Consumption
from optlint.analysis.project_kinds import method_kinds
from optlint.analysis.values import ClassRef, InstanceValue

if TYPE_CHECKING:
    from collections.abc import Callable

    from optlint.analysis.key_calls_view import KeyCallsView

    # The qualified names of a class's bases, and theirs (`LibraryKeyCalls.bases`).
    BasesOf = Callable[[str, set[str]], set[str]]


class AppliedMethods:
    """What a call running a method of the file's classes by name consumes."""

    def __init__(self, calls: KeyCallsView, bases: BasesOf) -> None:
        self.calls = calls
        self.ctx = calls.ctx
        self.bases = bases

    def consumptions(self, call: cst.Call, site: CallSite) -> list[Consumption]:
        func = call.func
        if not isinstance(func, cst.Attribute) or func.attr.value not in METHOD_RUNNERS:
            return []
        row = METHOD_RUNNERS[func.attr.value]
        keyword, skipped, bases = row
        named = next((arg.value for arg in call.args
                      if arg.keyword is not None and arg.keyword.value == keyword), None)
        leading = call.args[:skipped]
        if named is None or len(leading) < skipped or any(
                arg.keyword is not None or arg.star for arg in leading):
            return []
        method = self._method(named, func.value, site)
        if method is None or not self.bases(method[0].name, set()) & set(bases):
            return []
        flow = self.calls.summary(method[1])
        if flow is None:
            return []
        # The call as the method sees it: the arguments it passes on, bound after `self`.
        passed = call.with_changes(args=[arg for arg in call.args[skipped:]
                                         if arg.keyword is None or arg.keyword.value != keyword])
        how = self.calls.callee(call)
        uses = []
        for param, expr in bind_arguments(method[1], passed, True):
            inner = flow.param_uses.get(param.name.value)
            if param.name.value in flow.consumed_params and inner is not None:
                uses.append(Consumption(call, expr, how, library=False,
                                        kind="split" if inner.kind == "split" else "draw",
                                        unseen=inner.unseen, proof=inner.proof))
        return uses

    def _method(self, named: cst.BaseExpression, receiver: cst.BaseExpression, site: CallSite
                ) -> tuple[ClassInfo, cst.FunctionDef] | None:
        """The class of the file and its method that `named` names: `Model.sample`, or
        `"sample"` on an object of a class of the file."""
        if isinstance(named, cst.Attribute):
            owner = self.ctx.value(named.value, site)
            name = named.attr.value
        elif isinstance(named, cst.SimpleString) and isinstance(named.evaluated_value, str):
            owner = self.ctx.value(receiver, site)
            name = named.evaluated_value
        else:
            return None
        if not isinstance(owner, (ClassRef, InstanceValue)) or owner.path != self.ctx.inference.path:
            return None
        for item in owner.info.node.body.body:
            if (isinstance(item, cst.FunctionDef) and item.name.value == name
                    and not method_kinds(item)):
                return owner.info, item
        return None
