"""A function given by a caller, known from the calls that give it.

`jax.vmap(model, in_axes=(0, None))(x, key)` in a loss whose `model` is a parameter: alone, the
analysis cannot see whether `model` draws from the key. When every call of the file that runs
the loss (directly, jitted, pmapped, through `functools.partial`, from a step that is given the
model in turn) passes an instance of one of the project's classes (of this file or imported
from another), made there or carried through calls that return the same pytree
(`jax.device_put_replicated`, `eqx.tree_deserialise_leaves`, the file's own functions returning
what they are given: `key_returned_origins.py`), the class's `__call__` (undecorated or only
compiled) says whether the key is drawn from. Anything the walk cannot tell (a call
it cannot follow, a value it cannot name, a switch that turns drawing off) leaves the
consumption unproven.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument, argument_for, bind_arguments
from optlint.analysis.callsites import CallSites
from optlint.analysis.index import LATER, CallSite, ClassInfo, Scope
from optlint.analysis.key_model_objects import (
    CALLING_WRAPPERS,
    HOLDING_CALLS,
    HOLDING_METHODS,
    SAME_PYTREE,
    SPLIT_PYTREE,
)
from optlint.analysis.key_consumers import NO_DRAW_SWITCHES
from optlint.analysis.key_returned_origins import (
    ReturnedOrigins,
    element_at,
    transformed_function,
)
from optlint.analysis.key_fields import called_method
from optlint.analysis.key_syntax import reads_as_key
from optlint.analysis.prng_keys import Consumption
from optlint.analysis.values import (
    UNKNOWN,
    ClassRef,
    FunctionValue,
    InstanceValue,
    ModuleValue,
)

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView

# How many steps (names, callers, returns, calls returning the same pytree) are followed back,
# and how many in all for one question (callers' joins branch at every parameter).
_DEPTH = 16
_STEPS = 200


class GivenCallables:
    """Which arguments a function given by a caller draws from, as its callers show it."""

    def __init__(self, calls: KeyCallsView) -> None:
        self.calls = calls
        self.ctx = calls.ctx
        self._callsites: CallSites | None = None
        self._wrapped: dict[int, list[CallSite]] | None = None
        self._built: dict[int, list[CallSite]] | None = None
        self._steps_left = 0
        self._returned = ReturnedOrigins(self.ctx, self._origins)  # what calls of the file hand back

    def consumptions(self, call: cst.Call, site: CallSite) -> list[Consumption]:
        """`model(rng, x)` where `model` is a parameter (of this function or one it is
        nested in) and `rng` reads as a key: proven when every caller gives something that
        draws from it, else a consumption for `--preview` only."""
        func = call.func
        if (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Attribute)
                and isinstance(func.value.value, cst.Name)
                and _owner(site.scope, func.value.value) is not None):
            return self._held_method_consumptions(call, func.value, func.attr.value, site)
        if not isinstance(func, cst.Name) or not self.calls.given_function(func, site):
            return []
        how = self.calls.callee(call)
        drawn, proof = self.drawn_arguments(func, site, call)
        return [Consumption(call, arg.value, how, library=False,
                            proof=proof if id(arg.value) in drawn else "",
                            unseen="" if id(arg.value) in drawn else
                            f"`{func.value}` is a function given by a caller; the "
                            f"analysis cannot see it draw from the key")
                for arg in call.args
                if self.calls.reads_as_key(arg.value)
                or (arg.keyword is not None and arg.keyword.value == "key"
                    and isinstance(arg.value, cst.Name))][:1]

    def _held_method_consumptions(self, call: cst.Call, held: cst.Attribute, method: str,
                                  site: CallSite) -> list[Consumption]:
        """`self.sublayer.pure_fn(x, w, state, self.rng)`: a method of the object an attribute
        holds, proven to draw from the key when every value the class gives the attribute
        (`self.sublayer = sublayer`, from every construction) is an instance of a class of the
        file whose own `method` draws from it (nothing for `--preview` otherwise)."""
        keys = [arg.value for arg in call.args
                if self.calls.reads_as_key(arg.value) or _reads_as_held_key(arg.value)
                or (arg.keyword is not None and arg.keyword.value == "key")]
        if not keys:
            return []
        drawn, proof = self.drawn_arguments(held, site, call, method)
        return [Consumption(call, key, self.calls.callee(call), library=False, proof=proof)
                for key in keys if id(key) in drawn][:1]

    def drawn_arguments(self, given: cst.Name | cst.Attribute, site: CallSite,
                        call: cst.Call, method: str = "__call__") -> tuple[set[int], str]:
        """The ids of the arguments of `call` (which calls `given`, a parameter, with its
        arguments; or its `method`) that every callable its callers give draws from (empty
        when not proven), and what shows it, for the message."""
        self._steps_left = _STEPS
        runs = self._runs_of(given, site, _DEPTH, method)
        if not runs:
            return set(), ""
        drawn: set[int] | None = None
        for function, bound in runs:
            found = self._drawn_by_call(function, bound, call)
            drawn = found if drawn is None else drawn & found
        names = sorted({self._named(function, bound) for function, bound in runs})
        return drawn or set(), (f"every caller gives `{self.ctx.code(given)}` "
                                f"{' or '.join(names)}")

    def _named(self, function: cst.FunctionDef, bound: bool) -> str:
        flow = self.calls.foreign.owner_of.get(id(function))  # of another file: its index
        info = (self.ctx if flow is None else flow.ctx).index.functions.get(function)
        owner = info.scope.parent if info is not None else None
        if bound and owner is not None and isinstance(owner.node, cst.ClassDef):
            return (f"a `{owner.node.name.value}`, whose `{function.name.value}` draws from "
                    f"the key")
        return f"`{function.name.value}`, which draws from the key"

    def _drawn_by_call(self, function: cst.FunctionDef, bound: bool, call: cst.Call
                       ) -> set[int]:
        flow = self.calls.summary(function)
        if flow is None:
            return set()
        passed = bind_arguments(function, call, bound)
        if any(_turns_drawing_off(param.name.value, expr) for param, expr in passed):
            return set()
        return {id(expr) for param, expr in passed
                if param.name.value in flow.consumed_params
                and not flow.param_uses[param.name.value].unseen}

    def _runs_of(self, expr: cst.BaseExpression, site: CallSite, depth: int,
                 method: str = "__call__") -> list[tuple[cst.FunctionDef, bool]] | None:
        """The functions of the file that calling the value of `expr` (or its `method`) runs
        (bound: a method), one per value that may reach it; None when one of them cannot be
        told."""
        origins = self._origins(expr, site, depth)
        if not origins:
            return None
        runs = []
        for origin, at in origins:
            run = self._run_by(origin, at, method)
            if run is None:
                return None
            runs.append(run)
        return runs

    def _run_by(self, origin: cst.BaseExpression, site: CallSite, method: str = "__call__"
                ) -> tuple[cst.FunctionDef, bool] | None:
        """What calling the value `origin` makes runs: a function of the file, the `__call__`
        of an instance of a class of the file, or the method a library wrapper of such a class
        calls (`flax.nn.Model(Seq2seq, params)` runs `Seq2seq.apply`)."""
        value = self.ctx.value(origin, site)
        here = self.ctx.inference.path
        if isinstance(origin, cst.Call):
            # Only a class of the project built here is known by what it runs: a library call
            # may return the model changed (`eqx.nn.inference_mode(model)` draws nothing).
            made = self.calls.foreign.project_class(self.ctx.value(origin.func, site))
            value = UNKNOWN if made is None else InstanceValue(made.info, made.path)
        if isinstance(value, ModuleValue) and value.derived_by is None and value.cls is not None:
            value = InstanceValue(value.cls.info, value.cls.path)
        if isinstance(origin, cst.Call) and method == "__call__":
            row = CALLING_WRAPPERS.get(self.ctx.qualify(origin.func) or "")
            wrapped = argument(origin, row[0], row[1]) if row is not None else None
            if row is not None and wrapped is not None:
                value = self.ctx.value(wrapped.value, site)
                method = row[2]
                if isinstance(value, ClassRef):
                    value = InstanceValue(value.info, value.path)
        if isinstance(value, InstanceValue) and value.path == here:
            found = called_method(value.info, method, self.ctx.qualify)
            return (found, True) if found is not None else None
        if isinstance(value, InstanceValue) and value.path is not None:
            # A class of another project file: its method, summarised by its own file.
            return self.calls.foreign.method(value.info, value.path, method)
        if (isinstance(value, FunctionValue) and not value.bound and method == "__call__"
                and isinstance(value.node, cst.FunctionDef)
                and value.node in self.ctx.index.functions):
            return value.node, False
        return None

    def _origins(self, expr: cst.BaseExpression, site: CallSite, depth: int
                 ) -> list[tuple[cst.BaseExpression, CallSite]] | None:
        """The expressions whose value `expr` may hold, followed through names, the callers
        of a function whose parameter it is, the returns of the file's functions, calls that
        return the same pytree and attributes of objects that hold what they were made with;
        None when a step cannot be told."""
        self._steps_left -= 1
        if depth == 0 or self._steps_left < 0:
            return None
        if isinstance(expr, cst.Name):
            return self._name_origins(expr, site, depth)
        if isinstance(expr, cst.Attribute):
            return self._held_origins(expr, site, depth)
        if not isinstance(expr, cst.Call):
            return [(expr, site)]
        row = SAME_PYTREE.get(self.ctx.qualify(expr.func) or "")
        if row is not None:
            passed = argument(expr, *row)
            return None if passed is None else self._origins(passed.value, site, depth - 1)
        # A function of the file: what it returns, from what this call gives it.
        return self._returned.of_call(expr, site, depth)

    def _name_origins(self, name: cst.Name, site: CallSite, depth: int
                      ) -> list[tuple[cst.BaseExpression, CallSite]] | None:
        binding = self.ctx.binding(name.value, site)
        if binding is None or binding.scope is None:
            return [(name, site)]
        if binding.kind == "assign":
            if binding.value is None:
                return None
            if binding.path:  # `params, static = eqx.partition(model, ...)`: `model`'s tree
                made = binding.value
                split = (SPLIT_PYTREE.get(self.ctx.qualify(made.func) or "")
                         if isinstance(made, cst.Call) else None)
                whole = (argument(made, *split)
                         if split is not None and isinstance(made, cst.Call) else None)
                if whole is None and isinstance(made, cst.Call):
                    # `loss, model, state = step(...)`: what `step` returns there.
                    return self._returned.of_call(made, CallSite(
                        site.node, binding.scope, binding.order), depth, binding.path)
                if whole is None or len(binding.path) != 1:
                    return None
                return self._origins(whole.value, CallSite(site.node, binding.scope,
                                                            binding.order), depth - 1)
            return self._origins(binding.value, CallSite(site.node, binding.scope,
                                                         binding.order), depth - 1)
        if binding.kind != "param":
            return [(name, site)]
        given = self._returned.given(name.value, binding.scope)
        if given is not None:  # the call whose return is followed gives it
            return self._origins(given[0], given[1], depth - 1)
        owner = binding.scope.node
        earlier = [other for other in binding.scope.bindings.get(name.value, [])
                   if other.order < site.order]
        if len(earlier) != 1 or not isinstance(owner, cst.FunctionDef):
            return None  # rebound before the call: which value reaches it is not told
        runs = self._runs(owner)
        if not runs:
            return None
        found: list[tuple[cst.BaseExpression, CallSite]] = []
        for run, bound in runs:  # every call of the function: what it passes
            passed = argument_for(run.node, owner, name.value, bound)
            more = None if passed is None else self._origins(passed, run, depth - 1)
            if more is None:
                return None
            found += more
        return found

    def _held_origins(self, expr: cst.Attribute, site: CallSite, depth: int
                      ) -> list[tuple[cst.BaseExpression, CallSite]] | None:
        """`optimizer.target` where `optimizer = optim.Adam(lr).create(model)`: `model`;
        `self.model` in a method: what the class's methods assign to it."""
        owner = _owner(site.scope, expr.value) if isinstance(expr.value, cst.Name) else None
        if owner is not None:
            return self._attribute_origins(owner, expr.attr.value, site, depth)
        holders = self._origins(expr.value, site, depth - 1)
        if holders is None:
            return None
        found: list[tuple[cst.BaseExpression, CallSite]] = []
        for holder, at in holders:
            row = self._holding_row(holder, at) if isinstance(holder, cst.Call) else None
            held = row.get(expr.attr.value) if row is not None else None
            passed = (argument(holder, *held) if held is not None
                      and isinstance(holder, cst.Call) else None)
            more = None if passed is None else self._origins(passed.value, at, depth - 1)
            if more is None:
                return None
            found += more
        return found

    def _attribute_origins(self, owner: ClassInfo, attr: str, site: CallSite, depth: int
                           ) -> list[tuple[cst.BaseExpression, CallSite]] | None:
        """Every value `self.<attr>` is given: each `self.<attr> = value` of a method, and the
        field's default."""
        sources = [(value, CallSite(site.node, binding.scope, binding.order))
                   for binding in owner.attributes.get(attr, [])
                   if binding.scope is not None
                   for value in [element_at(binding.value, binding.path)] if value is not None]
        if len(sources) != len(owner.attributes.get(attr, [])):
            return None
        field = owner.fields.get(attr)
        if field is not None and field.default is not None:
            sources.append((field.default, CallSite(site.node, owner.scope, LATER)))
        if not sources:
            return None
        found: list[tuple[cst.BaseExpression, CallSite]] = []
        for value, at in sources:
            more = self._origins(value, at, depth - 1)
            if more is None:
                return None
            found += more
        return found

    def _holding_row(self, holder: cst.Call, site: CallSite
                     ) -> dict[str, tuple[int | None, str]] | None:
        row = HOLDING_CALLS.get(self.ctx.qualify(holder.func) or "")
        if row is not None or not isinstance(holder.func, cst.Attribute):
            return row
        receivers = self._origins(holder.func.value, site, 2)
        if not receivers or len(receivers) != 1 or not isinstance(receivers[0][0], cst.Call):
            return None
        made_by = self.ctx.qualify(receivers[0][0].func) or ""
        return next((row for (module, method), row in HOLDING_METHODS.items()
                     if made_by.startswith(module + ".") and method == holder.func.attr.value),
                    None)

    def _runs(self, function: cst.FunctionDef) -> list[tuple[CallSite, bool]]:
        """The calls that run `function` with their own arguments (bound: as a method, whose
        `self` the call does not pass): direct, decorated or transformed
        (`compute_loss(model, x)`), of a name bound to a transformation of it
        (`step = eqx.filter_pmap(functools.partial(make_step, tx=tx))`), or, for an
        `__init__`, the constructions of its class."""
        if self._callsites is None:
            self._callsites = CallSites(self.ctx.index, self.ctx.inference)
        sites = {id(invocation.site.node): invocation.site
                 for invocation in self._callsites.invocations(function)}
        sites.update((id(site.node), site) for site in self._wrapped_runs().get(id(function), []))
        runs = [(site, False) for site in sites.values()]
        info = self.ctx.index.functions.get(function)
        owner = info.scope.parent if info is not None else None
        if function.name.value == "__init__" and owner is not None and owner.kind == "class":
            runs += [(site, True) for site in self._constructions().get(id(owner.node), [])]
        return runs

    def _constructions(self) -> dict[int, list[CallSite]]:
        """The file's calls of its classes, by the class statement."""
        if self._built is None:
            self._built = {}
            for site in self.calls.sites.values():
                made = self.ctx.value(site.node.func, site)
                if isinstance(made, ClassRef) and made.path == self.ctx.inference.path:
                    self._built.setdefault(id(made.info.node), []).append(site)
        return self._built

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
                function = transformed_function(self.ctx, binding.value, binding.scope,
                                                binding.order)
                if function is not None:
                    self._wrapped.setdefault(id(function), []).append(site)
        return self._wrapped

def _turns_drawing_off(param: str, expr: cst.BaseExpression) -> bool:
    """`enable_dropout=False`, `inference=True`: the layer draws nothing."""
    off = NO_DRAW_SWITCHES.get(param)
    return (off is not None and isinstance(expr, cst.Name)
            and expr.value == ("True" if off else "False"))


def _owner(scope: Scope, receiver: cst.Name) -> ClassInfo | None:
    """The class whose method binds `receiver` as `self`, seen from `scope` or from a function
    nested in the method."""
    current: Scope | None = scope
    while current is not None and current.kind == "function":
        if current.self_name == receiver.value:
            return current.owner
        if receiver.value in current.bindings:
            return None
        current = current.parent
    return None


def _reads_as_held_key(expr: cst.BaseExpression) -> bool:
    """`self.rng`, `state.key`: an attribute that reads as a key."""
    return (isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name)
            and reads_as_key(expr.attr.value))
