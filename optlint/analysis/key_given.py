"""A function given by a caller, known from the calls that give it.

`jax.vmap(model, in_axes=(0, None))(x, key)` in a loss whose `model` is a parameter: alone, the
analysis cannot see whether `model` draws from the key. When every call of the file that runs
the loss (directly, jitted, pmapped, through `functools.partial`, from a step that is given the
model in turn) passes an instance of one of the file's classes, made there or carried through
calls that return the same pytree (`jax.device_put_replicated`, `eqx.tree_deserialise_leaves`),
the class's `__call__` says whether the key is drawn from. Anything the walk cannot tell (a call
it cannot follow, a value it cannot name, a switch that turns drawing off) leaves the
consumption unproven.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument, argument_for, bind_arguments
from optlint.analysis.callsites import CallSites
from optlint.analysis.index import CallSite, ClassInfo, Scope
from optlint.analysis.key_consumers import NO_DRAW_SWITCHES, PASSING_TRANSFORMS, SAME_PYTREE
from optlint.analysis.key_syntax import own_method
from optlint.analysis.values import FunctionValue, InstanceValue, ModuleValue

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView

# How many callers (and calls returning the same pytree) are followed back.
_DEPTH = 4


class GivenCallables:
    """Which arguments a function given by a caller draws from, as its callers show it."""

    def __init__(self, calls: KeyCallsView) -> None:
        self.calls = calls
        self.ctx = calls.ctx
        self._callsites: CallSites | None = None
        self._wrapped: dict[int, list[CallSite]] | None = None

    def drawn_arguments(self, given: cst.Name, site: CallSite, call: cst.Call) -> set[int]:
        """The ids of the arguments of `call` (which calls `given`, a parameter, with its
        arguments) that every class its callers give draws from; empty when not proven."""
        scope = _param_scope(site.scope, given.value)
        if scope is None or not isinstance(scope.node, cst.FunctionDef):
            return set()
        classes = self._classes_given(scope.node, given.value, _DEPTH)
        if not classes:
            return set()
        drawn: set[int] | None = None
        for info in classes.values():
            found = self._drawn_by_call(info, call)
            drawn = found if drawn is None else drawn & found
        return drawn or set()

    def _drawn_by_call(self, info: ClassInfo, call: cst.Call) -> set[int]:
        method = own_method(info, "__call__")
        flow = self.calls.summary(method) if method is not None else None
        if method is None or flow is None:
            return set()
        bound = bind_arguments(method, call, True)
        if any(_turns_drawing_off(param.name.value, expr) for param, expr in bound):
            return set()
        return {id(expr) for param, expr in bound
                if param.name.value in flow.consumed_params
                and not flow.param_uses[param.name.value].unseen}

    def _classes_given(self, function: cst.FunctionDef, param: str, depth: int
                       ) -> dict[int, ClassInfo] | None:
        """The classes of the file whose instances every call of `function` passes as
        `param`; None when one call passes something else or cannot be told."""
        if depth == 0:
            return None
        sites = self._runs(function)
        if not sites:
            return None
        found: dict[int, ClassInfo] = {}
        for site in sites:
            expr = argument_for(site.node, function, param)
            classes = None if expr is None else self._classes_of(expr, site, depth - 1)
            if not classes:
                return None
            found.update(classes)
        return found

    def _classes_of(self, expr: cst.BaseExpression, site: CallSite, depth: int
                    ) -> dict[int, ClassInfo] | None:
        """The classes of the file `expr` holds an instance of (None: cannot be told)."""
        value = self.ctx.value(expr, site)
        here = self.ctx.inference.path
        if isinstance(value, ModuleValue) and value.derived_by is None and value.cls is not None:
            value = InstanceValue(value.cls.info, value.cls.path)
        if isinstance(value, InstanceValue):
            return {id(value.info): value.info} if value.path == here else None
        if depth == 0 or not isinstance(expr, cst.Name):
            return None
        binding = self.ctx.binding(expr.value, site)
        if binding is None or binding.scope is None:
            return None
        if binding.kind == "param":
            owner = binding.scope.node
            earlier = [other for other in binding.scope.bindings.get(expr.value, [])
                       if other.order < site.order]
            if len(earlier) != 1 or not isinstance(owner, cst.FunctionDef):
                return None  # rebound before the call: which value reaches it is not told
            return self._classes_given(owner, expr.value, depth)
        if binding.kind != "assign" or binding.path or not isinstance(binding.value, cst.Call):
            return None
        row = SAME_PYTREE.get(self.ctx.qualify(binding.value.func) or "")
        passed = argument(binding.value, *row) if row is not None else None
        if passed is None:
            return None
        return self._classes_of(passed.value, CallSite(binding.value, binding.scope,
                                                       binding.order), depth - 1)

    def _runs(self, function: cst.FunctionDef) -> list[CallSite]:
        """The calls that run `function` with their own arguments: direct, decorated or
        transformed (`compute_loss(model, x)`), or of a name bound to a transformation of it
        (`step = eqx.filter_pmap(functools.partial(make_step, tx=tx))`)."""
        if self._callsites is None:
            self._callsites = CallSites(self.ctx.index, self.ctx.inference)
        return [invocation.site for invocation in self._callsites.invocations(function)
                ] + self._wrapped_runs().get(id(function), [])

    def _wrapped_runs(self) -> dict[int, list[CallSite]]:
        if self._wrapped is None:
            self._wrapped = {}
            for site in self.calls.sites.values():
                if not isinstance(site.node.func, cst.Name):
                    continue
                binding = self.ctx.binding(site.node.func.value, site)
                if (binding is None or binding.kind != "assign" or binding.path
                        or binding.scope is None or not isinstance(binding.value, cst.Call)):
                    continue
                function = self._transformed(binding.value, binding.scope, binding.order)
                if function is not None:
                    self._wrapped.setdefault(id(function), []).append(site)
        return self._wrapped

    def _transformed(self, made: cst.Call, scope: Scope, order: int) -> cst.FunctionDef | None:
        """The function of the file a transformation call wraps, when its arguments reach the
        function unchanged (a `functools.partial` of it that binds only keywords)."""
        if self.ctx.qualify(made.func) not in PASSING_TRANSFORMS or not made.args:
            return None
        wrapped = made.args[0].value
        if isinstance(wrapped, cst.Call) and self.ctx.qualify(wrapped.func) == "functools.partial":
            if not wrapped.args or any(arg.keyword is None or arg.star
                                       for arg in wrapped.args[1:]):
                return None
            wrapped = wrapped.args[0].value
        value = self.ctx.inference.value_of(wrapped, scope, order)
        if (isinstance(value, FunctionValue) and not value.bound
                and isinstance(value.node, cst.FunctionDef)):
            return value.node
        return None


def _turns_drawing_off(param: str, expr: cst.BaseExpression) -> bool:
    """`enable_dropout=False`, `inference=True`: the layer draws nothing."""
    off = NO_DRAW_SWITCHES.get(param)
    return (off is not None and isinstance(expr, cst.Name)
            and expr.value == ("True" if off else "False"))


def _param_scope(scope: Scope | None, name: str) -> Scope | None:
    """The scope of the function `name` is a parameter of, seen from `scope`."""
    while scope is not None and name not in scope.bindings:
        scope = scope.parent
    if scope is None or not any(binding.kind == "param" for binding in scope.bindings[name]):
        return None
    return scope

