"""Which values reach a function's parameters from the calls to it in the same file.

Inference alone knows a parameter only by its annotation. Rules that ask "is this function given an
Equinox module?" also look at the calls: `step(model, x)`, `jax.jit(step)(model, x)`,
`eqx.filter_value_and_grad(loss)(model)`, and, when the argument is itself a parameter of the
calling function, at the calls to that function (a few levels deep).
"""

from __future__ import annotations


import libcst as cst

from optlint.analysis.binding import FunctionNode, argument_for, positional_params
from optlint.analysis.index import CallSite, FileIndex, Scope
from optlint.analysis.evaluator import Evaluator
from optlint.analysis.values import UNKNOWN, FunctionValue, TransformedFunction, Value
from optlint.records import record

_MAX_HOPS = 3


@record
class Invocation:
    """A call that runs `function`: directly, or through `wrapper` (`jax.jit(function)(...)`)."""

    site: CallSite
    wrapper: TransformedFunction | None


@record
class Arrival:
    """A value that reaches a parameter, and the call that passes it (None: the annotation)."""

    value: Value
    site: CallSite | None


class CallSites:
    def __init__(self, index: FileIndex, inference: Evaluator) -> None:
        self.index = index
        self.inference = inference
        self._by_function: dict[int, list[Invocation]] | None = None

    def invocations(self, function: FunctionNode) -> list[Invocation]:
        if self._by_function is None:
            self._by_function = self._collect()
        return self._by_function.get(id(function), [])

    def arrivals(self, function: FunctionNode, param: str, hops: int = 0) -> list[Arrival]:
        """What reaches `param` of `function`: its annotation, then every call's argument."""
        found: list[Arrival] = []
        annotated = self.annotated_value(function, param)
        if annotated is not UNKNOWN:
            found.append(Arrival(annotated, None))
        for invocation in self.invocations(function):
            found.extend(self.arrivals_at(invocation.site, function, param, hops))
        return found

    def forwarded_arrivals(self, function: FunctionNode, param: str) -> list[Arrival]:
        """What reaches the parameters `function` passes `param` on to, unchanged.

        `value_fn=lambda p: loss(p, x)`: nothing calls the lambda in the file, but `loss(model, x)`
        elsewhere says what its first parameter, and so `p`, stands for.
        """
        found: list[Arrival] = []
        for site in self.index.calls:
            if site.scope.node is not function:
                continue
            callee = self.inference.value_of(site.node.func, site.scope, site.order)
            if isinstance(callee, TransformedFunction):
                callee = callee.func
            if not isinstance(callee, FunctionValue) or callee.node is function:
                continue
            for target in [*positional_params(callee.node), *callee.node.params.kwonly_params]:
                passed = argument_for(site.node, callee.node, target.name.value)
                if isinstance(passed, cst.Name) and passed.value == param:
                    found.extend(self.arrivals(callee.node, target.name.value))
        return found

    def arrivals_at(self, site: CallSite, function: FunctionNode, param: str,
                    hops: int = 0) -> list[Arrival]:
        """What one call passes to `param`, following it into the caller's own parameters."""
        expr = argument_for(site.node, function, param)
        if expr is None:
            return []
        value = self.inference.value_of(expr, site.scope, site.order)
        if value is not UNKNOWN:
            return [Arrival(value, site)]
        caller = _enclosing_function(site.scope)
        if (hops < _MAX_HOPS and caller is not None and isinstance(expr, cst.Name)
                and _is_unassigned_param(site.scope, expr.value, site.order)):
            return self.arrivals(caller, expr.value, hops + 1)
        return []

    def annotated_value(self, function: FunctionNode, param: str) -> Value:
        info = self.index.functions.get(function)
        if info is None:
            return UNKNOWN
        bindings = [b for b in info.scope.bindings.get(param, []) if b.kind == "param"]
        if not bindings:
            return UNKNOWN
        node = bindings[0].node
        if not isinstance(node, cst.Param):
            return UNKNOWN
        # Asked just after the parameter's own binding, before the body can rebind the name.
        return self.inference.value_of(node.name, info.scope, bindings[0].order + 1)

    def _collect(self) -> dict[int, list[Invocation]]:
        found: dict[int, list[Invocation]] = {}
        for site in self.index.calls:
            callee = self.inference.value_of(site.node.func, site.scope, site.order)
            wrapper = None
            if isinstance(callee, TransformedFunction):
                wrapper, callee = callee, callee.func
            # A bound method's arguments start at its second parameter; `self` is known anyway.
            if isinstance(callee, FunctionValue) and not callee.bound:
                found.setdefault(id(callee.node), []).append(Invocation(site, wrapper))
        return found




def _enclosing_function(scope: Scope) -> FunctionNode | None:
    node = scope.node
    return node if scope.kind == "function" and isinstance(node, (cst.FunctionDef, cst.Lambda)) \
        else None


def _is_unassigned_param(scope: Scope, name: str, order: int) -> bool:
    """`name` is a parameter of this function, not rebound before `order`."""
    earlier = [b for b in scope.bindings.get(name, []) if b.order < order]
    return bool(earlier) and earlier[-1].kind == "param" and len(earlier) == 1
