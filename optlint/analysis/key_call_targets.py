"""Which project function a call of one file runs (`CallTargets.resolve`): a function or
method of the file, a static or class method, a class built (its `__init__`) or an instance
called (its `__call__`), a module-level function of another project file, or, for a library
layer the call builds in training mode, what it consumes. Asked by every walk of the file, so
each call is resolved once."""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import TYPE_CHECKING, cast

import libcst as cst

from optlint.analysis.index import CallSite
from optlint.analysis.key_fields import called_method, compiled_step
from optlint.analysis.key_foreign_statics import foreign_static_method
from optlint.analysis.key_object_methods import ObjectMethods, own_object
from optlint.analysis.key_overrides import Abstract, Overrides
from optlint.analysis.key_foreign_methods import (
    Receivers,
    defines_foreign_method,
    draws_from_fields,
    foreign_method,
    holds_arguments,
)
from optlint.analysis.key_library_calls import RANDOM_LAYERS, last_name
from optlint.analysis.key_model_objects import DIFFERENTIATING, STEPPING
from optlint.analysis.key_syntax import classmethod_owner, reads_as_key
from optlint.analysis.prng_keys import Consumption, key_argument
from optlint.analysis.project_kinds import method_kinds
from optlint.analysis.values import (
    ClassRef,
    FunctionValue,
    InstanceValue,
    ModuleValue,
    UNKNOWN,
    TransformedFunction,
    Value,
)

if TYPE_CHECKING:
    from optlint.analysis.key_foreign import ForeignFunctions
    from optlint.analysis.key_library_calls import LibraryKeyCalls
    from optlint.context import RuleContext

# What a call runs: the function, whether it is bound (a method), whether it runs as a
# compiled step; or what a library layer it builds consumes.
Target = tuple[cst.FunctionDef, bool, bool] | list[Consumption]


class CallTargets:
    """The project functions the calls of one file run, resolved once per call."""

    def __init__(self, ctx: RuleContext, sites: dict[int, CallSite],
                 callee: Callable[[cst.Call], str], library: LibraryKeyCalls,
                 foreign: ForeignFunctions, summarised: bool = False) -> None:
        self.ctx = ctx
        # The file being linted, whose candidates may ask other files' summaries.
        self.summarised = summarised
        self.sites = sites
        self.callee = callee
        self.library = library
        self.foreign = foreign
        # The names of the file's functions that consume a key or call a function they are
        # given (`key_helpers.py`), set once found: a call by no such name is resolved only
        # when it passes a key.
        self.helpers: Container[str] = set()
        self.higher_order: set[str] = set()
        self._resolved: dict[int, Target | None] = {}
        self._receivers: Receivers = {}  # of the calls of another file's methods asked about
        # Calls of a module switched to inference mode (`eqx.nn.inference_mode(model)`), by id.
        self.in_inference: set[int] = set()
        # Calls giving a key to a method of another file's class run on an object of a known
        # class: `self.m(key)` inherited from a base, `self.sampler(key=k)` of an instance.
        self.objects = ObjectMethods(ctx, sites)
        self.overrides = Overrides(ctx, lambda: self.objects.values, foreign)
        self.class_known: set[int] = set()
        # Calls running their function under a transformation that returns something other
        # than what the function returns (`jax.grad(loss)(params, key)`), by id.
        self.differentiated: set[int] = set()

    def resolve(self, call: cst.Call) -> Target | None:
        """The project function `call` runs (bound: a method; stepping: jitted), or what a
        library layer it calls consumes."""
        if id(call) in self._resolved:
            return self._resolved[id(call)]
        self._resolved[id(call)] = None
        result = self._resolve_uncached(call)
        self._resolved[id(call)] = result
        return result

    def draws_by_foreign_method(self, site: CallSite) -> bool:
        """`model.sample_action(state, obs)`, a method of another file's class, which may
        draw from a key a field of an object it is given holds (`state.rng_key`): a call that
        may consume a key although none of its arguments reads as one.

        For the file being linted (`summarised`), only where the method's summary, made by its
        own file's key flow, draws from a field of a parameter: most such methods draw nothing
        so, and a call that consumes nothing makes no function of the file worth summarising.
        A flow made for another file's lookups answers from the class alone: its own answer
        would make a third file's flow, and so on along the project's imports."""
        if not (holds_arguments(site.node)
                and defines_foreign_method(self.ctx, site.node, site, self._receivers)):
            return False
        if not self.summarised:
            return True
        found = foreign_method(self.ctx, self.foreign, site.node, site, self._receivers)
        owner = self.foreign.owner_of.get(id(found[0])) if found is not None else None
        flow = owner.summary(found[0]) if owner is not None and found is not None and (
            not owner.records_nothing(found[0])) else None
        return flow is not None and draws_from_fields(flow)

    def _foreign_target(self, method: cst.FunctionDef) -> Target:
        """A method of another file's class: bound, and a step when compiled there."""
        return method, True, compiled_step(method, self.foreign.owner_of[id(method)].ctx.qualify)

    def _known_class(self, call: cst.Call, site: CallSite, value: Value) -> Target | None:
        """A method of a project class run on an object whose class is known
        (`key_object_methods.py`): of another file, on the caller's own object or one it
        holds, its keys given are followed as those of a method of the file; abstract, what
        its overrides draw (`key_overrides.py`)."""
        if value is UNKNOWN:
            found = (self.objects.inherited(call, site) or self.objects.method(call, site)
                     or self.objects.called_object(call, site))
        elif isinstance(value, FunctionValue) and value.bound:
            found = (self.objects.method(call, site) if value.node not in self.ctx.index.functions
                     else self.objects.abstract(value))
        elif isinstance(value, (InstanceValue, ModuleValue)):
            found = self.objects.called(value)
        else:
            return None
        if found is None:
            return None
        if isinstance(found, Abstract):  # every override the project has is read
            return self.overrides.consumptions(call, found, self.callee(call)) or None
        if not own_object(call, site) or self.foreign.method(
                found[1], found[2], found[0].name.value) is None:
            return None
        self.class_known.add(id(call))
        return self._foreign_target(found[0])

    def _static_method(self, call: cst.Call, site: CallSite
                       ) -> tuple[cst.FunctionDef, bool] | None:
        """`Noise.sample(key, shape)`: a `@staticmethod` of a class of the file, called on it
        or an instance; or a `@classmethod` (bound: given the class first)."""
        func = call.func
        owner = self.ctx.value(func.value, site) if isinstance(func, cst.Attribute) else None
        info = owner.info if (isinstance(owner, (ClassRef, InstanceValue))
                              and owner.path == self.ctx.inference.path) else None
        if info is None and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            info = classmethod_owner(func.value.value, site.scope)  # `cls.update(...)`
        if info is None or not isinstance(func, cst.Attribute):
            return foreign_static_method(self.ctx, self.foreign, call, owner)
        for item in info.node.body.body:
            if isinstance(item, cst.FunctionDef) and item.name.value == func.attr.value:
                kinds = method_kinds(item)
                if kinds:
                    return item, "classmethod" in kinds
        return None

    def _resolve_uncached(self, call: cst.Call) -> Target | None:
        last = last_name(call.func)
        if isinstance(call.func, cst.Call):  # `jax.grad(loss)(params)`: the helper it wraps
            last = next((arg.value.value for arg in call.func.args[:1]
                         if isinstance(arg.value, cst.Name)), None)
        if last is None:
            return None
        site = self.sites.get(id(call))
        if last not in self.helpers and last not in self.higher_order and not passes_key(call):
            # A method of another file's class may draw from a key an argument holds
            # (`state.rng_key`), which no name here shows.
            found = (foreign_method(self.ctx, self.foreign, call, site, self._receivers)
                     if site is not None and holds_arguments(call) else None)
            return None if found is None else self._foreign_target(found[0])
        return None if site is None else self._resolve_named(call, site)

    def runs_named(self, site: CallSite) -> bool:
        """Whether `x.method(...)`, called by the name of a function of the file that consumes
        a key, runs a project function (or builds a library layer): `resolve` once that name
        is a helper, asked by `key_helpers` before the helpers are known (a method of the file
        called on what it cannot name runs none: `tree.draw()` where a class's `draw` does).
        The answer is kept for `resolve`: the name stays a helper."""
        call = site.node
        if id(call) not in self._resolved:
            self._resolved[id(call)] = None
            self._resolved[id(call)] = self._resolve_named(call, site)
        return self._resolved[id(call)] is not None

    def _resolve_named(self, call: cst.Call, site: CallSite) -> Target | None:
        """`resolve` of a call worth resolving: by the name of a helper, or given a key."""
        value = self.ctx.value(call.func, site)
        if passes_key(call):
            known = self._known_class(call, site, value)
            if known is not None:
                return known
        static = self._static_method(call, site)
        if static is not None:
            if id(static[0]) in self.foreign.owner_of:  # of another file's class, named
                self.class_known.add(id(call))
            return static[0], static[1], compiled_step(static[0], self.ctx.qualify)
        stepping = False
        while isinstance(value, TransformedFunction) and value.transform in STEPPING:
            # Jitted or differentiated: a training step, run once per step with new keys.
            if value.transform in DIFFERENTIATING:
                self.differentiated.add(id(call))
            value, stepping = value.func, True
        if isinstance(value, ModuleValue) and value.derived_by is None:
            if value.cls is None:
                if value.class_name in RANDOM_LAYERS and not self.library.built_off(value, call):
                    key = key_argument(call, None, "key")
                    return [] if key is None else [Consumption(call, key, self.callee(call))]
                return None
            if value.inference:
                self.in_inference.add(id(call))
            value = InstanceValue(value.cls.info, value.cls.path)
        if isinstance(value, (InstanceValue, ClassRef)):
            # An instance called runs `__call__`; a class called builds one with `__init__`.
            if value.path != self.ctx.inference.path:
                return None
            method = called_method(value.info, "__call__" if isinstance(value, InstanceValue)
                                   else "__init__", self.ctx.qualify)
            if method is None:
                return None
            value = FunctionValue(method, bound=True)
        if (isinstance(value, FunctionValue) and value.bound
                and value.node not in self.ctx.index.functions):
            # `model.sample_action(state, obs)` on an instance of a class of another project
            # file: its method, summarised by its own file (`key_foreign_methods.py`), for the
            # keys the objects it is given hold only (not a key given as one).
            found = (foreign_method(self.ctx, self.foreign, call, site, self._receivers)
                     if not passes_key(call) else None)
            return None if found is None else self._foreign_target(found[0])
        if not isinstance(value, FunctionValue) or value.node not in self.ctx.index.functions:
            # A function or class of another project file that the call runs.
            found = (self.foreign.function(value)  # type: ignore[arg-type]
                     if passes_key(call) else None)
            return None if found is None else (found[0], found[1], False)
        if not isinstance(value.node, cst.FunctionDef):
            return None
        # A function decorated as a compiled step (`@partial(jax.jit, static_argnums=(0,))`
        # on a method) is one as much as `jax.jit(f)` is.
        return value.node, value.bound, stepping or compiled_step(value.node, self.ctx.qualify)


def passes_key(call: cst.Call) -> bool:
    """Given `key=`, or a name that reads as a key (`rng`, `subkey`, `init_key`): worth
    resolving (a cheap gate; what the callee does with it decides). Exact types: `isinstance`
    on libcst's classes costs, and this is asked of every call."""
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == "key":
            return True
        value = arg.value
        if type(value) is cst.Name:
            name: str | None = cast(cst.Name, value).value
        elif type(value) is cst.Attribute and (
                type(cast(cst.Attribute, value).value) is cst.Name
                or type(cast(cst.Attribute, value).value) is cst.Attribute):
            name = cast(cst.Attribute, value).attr.value  # `self.rng`, `self.policy.key`
        else:
            name = None
        if name is not None and reads_as_key(name):
            return True
    return False
