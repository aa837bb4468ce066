"""The key flow of one file: which of its calls consume which keys (a library's consumer, a
transformed function, a function or class of the file whose summary says it consumes its key
parameter), and the walks of its functions' bodies that find the reuses.

A function of the file is summarised by walking its body (`KeyFlow`): the parameters it
consumes, the enclosing keys it draws from, the consumed keys it returns. Only functions that
consume a key, directly or through one another, are walked (`helpers`, a cheap gate by name).
"""

from __future__ import annotations

from collections.abc import Iterator
from copy import copy
from typing import TYPE_CHECKING, cast

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.index import CallSite, ClassInfo, FunctionInfo, Scope
from optlint.analysis.key_callables import HeldCallables
from optlint.analysis.key_consumers import LIFTED_TRANSFORMS
from optlint.analysis.key_default_fields import module_holds_fixed_key
from optlint.analysis.key_fields import (
    compiled_step,
    given_object_consumptions,
    held_key_consumptions,
    stores_on_object,
)
from optlint.analysis.key_foreign import ForeignFunctions
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_given import GivenCallables
from optlint.analysis.key_helpers import KeyHelpers, key_helpers
from optlint.analysis.key_holders import values_held
from optlint.analysis.key_ignored import IgnoredArguments
from optlint.analysis.key_literal_branches import LiteralBranches
from optlint.analysis.key_module_keys import module_key_uses
from optlint.analysis.project_values import ProjectValues, statement_scope
from optlint.analysis.proven_attributes import MissingAttributes
from optlint.analysis.key_name_reads import FileReads
from optlint.analysis.key_seeds import constant_seeds, default_seeds
from optlint.analysis.key_methods import NamedMethods
from optlint.analysis.key_summary_cycles import ROUNDS, SummaryCycles, settled
from optlint.analysis.key_library_calls import (
    RANDOM_LAYERS,
    LibraryKeyCalls,
    draws_nothing,
    frame_readers,
    last_name,
)
from optlint.analysis.key_syntax import (
    body_of,
    classmethod_owner,
    module_constants,
    own_method,
    param_owner,
    reads_as_key,
)
from optlint.analysis.key_texts import called_text
from optlint.analysis.key_transforms import (
    TransformedKeyCalls,
    runs_per_step_or_row,
)
from optlint.analysis.prng_keys import Consumption, key_argument
from optlint.analysis.proven_raises import ProvenRaises
from optlint.analysis.values import (
    ClassRef,
    FunctionValue,
    InstanceValue,
    ModuleValue,
    TransformedFunction,
)

if TYPE_CHECKING:
    from optlint.context import RuleContext

# The base classes of Flax modules.
FLAX_MODULES = frozenset({"flax.linen.Module", "flax.linen.module.Module"})
# What callers read of a summary: a cycle's summaries are made again until these agree.
_SUMMARY_FACTS = ("consumed_params", "returned", "free_uses", "attribute_uses")
# Transformations (by a part of their qualified name) whose function runs as written, once per
# training step: `jax.jit`, `eqx.filter_value_and_grad`, `jax.checkpoint`.
STEPPING_TRANSFORMS = ("jit", "grad", "checkpoint", "remat")


class FileKeyCalls:
    """Which calls of one file consume which keys, the summaries of the file's functions, and
    the walks of their bodies, shared by the checks of one file."""

    def __init__(self, ctx: RuleContext, owners: dict | None = None) -> None:
        self.ctx = ctx
        # Functions of other project files the file's calls run, summarised by their files.
        owners = {} if owners is None else owners
        owners.setdefault(ctx.inference.path or ctx.filename, self)
        self.foreign = ForeignFunctions(ctx, FileKeyCalls, owners)
        self.sites: dict[int, CallSite] = {id(site.node): site for site in ctx.calls()}
        self.summaries: dict[int, KeyFlow | None] = {}
        self.callees: dict[int, str] = {}
        self.resolved: dict[int, tuple[cst.FunctionDef, bool, bool] | list[Consumption]
                            | None] = {}
        self.walks: dict[int, KeyFlow] = {}
        # The functions being summarised, and those whose summary met a call of themselves.
        self.cycles = SummaryCycles()
        self.recursive = self.cycles.recursive  # walked again for their own findings
        self.library = LibraryKeyCalls(ctx, self.sites, self.callee)
        # What each statement reads, for every walk of the file.
        values = ProjectValues(ctx.inference, self.sites)  # what the project's files prove
        self.read_caches = FileReads(frames=frame_readers(ctx), library=self.library,
                                     ignored=IgnoredArguments(values))
        self.made_keys: dict[int, str] = {}
        self.raises = ProvenRaises(ctx.inference, ctx.filename, self._resolve,
                                   MissingAttributes(values, statement_scope(ctx.index)))
        self._code: str | None = None  # by call: what `made_key` found ("": nothing)
        self.constants = module_constants(ctx.index)
        self.transformed = TransformedKeyCalls(self)
        self.held = HeldCallables(self)
        self.given = GivenCallables(self)
        self.named = NamedMethods(self)
        self.branches = LiteralBranches()  # parameters a call's literal arguments leave unread
        # Calls that consume a key by themselves, or may (a layer or model called with `key=`).
        self.candidates: set[int] = set()
        # What each call consumes as a library's consumer, worked out once: every walk asks.
        self._library_uses: dict[int, list[Consumption]] = {}
        for site in ctx.calls():
            direct = self._library_uses[id(site.node)] = self.library.consumptions(site.node)
            if (direct or passes_key(site.node) or runs_per_step_or_row(self.ctx, site)
                    or ctx.qualify(site.node.func) in LIFTED_TRANSFORMS):
                self.candidates.add(id(site.node))
        # No call that consumes a key: nothing to find, no helper to look for.
        found = key_helpers(ctx, self.candidates) if self.candidates else KeyHelpers(
            set(), set(), set())
        self.helpers = found.consuming
        self.stream_drawers = found.drawing
        self.higher_order = found.higher_order  # functions calling a function they are given

    def module_code(self) -> str:
        """The file's text, generated once (libcst writes the whole module at each ask)."""
        if self._code is None:
            self._code = self.ctx.source if self.ctx.source is not None else self.ctx.module.code
        return self._code

    def callee(self, call: cst.Call) -> str:
        """What a call calls, as the messages show it; made once per call (walks repeat)."""
        text = self.callees.get(id(call))
        if text is None:
            text = self.callees[id(call)] = called_text(self.ctx, call)
        return text

    def consumer(self, call: cst.Call) -> list[Consumption]:
        if draws_nothing(call):
            return []
        direct = self._library_uses.get(id(call))
        if direct is None:  # a call not of the file's (one a summary of another file meets)
            direct = self.library.consumptions(call)
        if direct:
            # A consumption of its own each time, as when worked out anew: walks tell the
            # consumptions they record apart by identity.
            return [copy(use) for use in direct]
        transformed = self.transformed.consumptions(call)
        if transformed is not None:
            return transformed
        resolved = self._resolve(call)
        if resolved is None:
            site = self.sites.get(id(call))
            if site is None or not passes_key(call):
                return []
            return (self.held.consumptions(call, site) or self.given.consumptions(call, site)
                    or self.named.consumptions(call, site))
        if isinstance(resolved, list):
            return resolved
        function, bound, stepping = resolved
        flow = self.summary(function)
        if flow is None:
            return []
        if bound and stores_on_object(self.ctx.index, function):
            self.library.keeping.add(id(call))  # `self.init()` keeps its draw in the object
        how = self.callee(call)
        # Read only on branches this call's literal arguments rule out: not consumed here.
        skipped = self.branches.unread_params(function, call, bound, flow.consumed_params)
        # A helper that splits its key first splits the caller's (it conflicts with `fold_in`).
        uses = [self._param_use(call, expr, how, stepping, function, param.name.value, flow)
                for param, expr in bind_arguments(function, call, bound)
                if param.name.value in flow.consumed_params and param.name.value not in skipped]
        uses += default_seeds(call, function, bound, flow, how, stepping)
        uses += constant_seeds(call, function, flow, how, stepping)
        if id(function) not in self.foreign.owner_of:
            uses += self.held.closures_called_again(call, function, bound, flow)
        held = held_key_consumptions(self.ctx.index, call, function, flow, how)
        if held:  # `self.rng` read only on branches this call's literals rule out
            unread = self.branches.unread_fields(function, call, {
                use.key.attr.value for use in held if isinstance(use.key, cst.Attribute)})
            uses += [use for use in held if not (isinstance(use.key, cst.Attribute)
                                                 and use.key.attr.value in unread)]
        if not bound and id(function) not in self.foreign.owner_of:
            uses += given_object_consumptions(call, function, bound, flow, how, self.ctx)
        if self.nested(function) or (not bound and id(function) not in self.foreign.owner_of):
            # A closure consuming a key of the enclosing function (or of the module, for a
            # function of the module): each call consumes it.
            free = (list(flow.free_consumed().values()) if self.nested(function)
                    else module_key_uses(self.ctx, flow.free_consumed()))
            uses += [Consumption(call, inner.key, how, library=False, stepping=stepping,
                                 closed=inner.closed or inner, unseen=inner.unseen,
                                 proof=inner.proof) for inner in free]
        return uses

    @staticmethod
    def _param_use(call: cst.Call, expr: cst.BaseExpression, how: str, stepping: bool,
                   function: cst.FunctionDef, param: str, flow: KeyFlow) -> Consumption:
        """What `call` consumes giving `expr` as `param`, which the callee consumes: a key, or
        a seed it makes its key from (`PRNGKey(seed)`: the same seed, the same key)."""
        inner = flow.param_uses[param]
        seeded = inner.kind == "seed"
        proof = inner.proof or (f"`{how}` makes its key from `{param}`" if seeded else "")
        return Consumption(call, expr, how, library=False, stepping=stepping,
                           kind="split" if inner.kind == "split" else "draw",
                           unseen=inner.unseen, proof=proof,
                           seeded_in=inner.call if seeded else None)

    def drawn_by_given(self, given: cst.Name, site: CallSite, call: cst.Call
                       ) -> tuple[set[int], str]:
        return self.given.drawn_arguments(given, site, call)

    @staticmethod
    def given_function(name: cst.Name, site: CallSite) -> bool:
        """`name` is a parameter, of the function `site` is in or of one it is nested in."""
        return param_owner(site.scope, name) is not None

    @staticmethod
    def reads_as_key(expr: cst.BaseExpression) -> bool:
        """A name that reads as a key (`rng`, `subkey`, `dropout_key`)."""
        return isinstance(expr, cst.Name) and reads_as_key(expr.value)

    def made_key(self, expr: cst.BaseExpression) -> str | None:
        """`prng_key()`: a call of a function of the file that returns a key made from
        constants (`jax.random.key(DEFAULT_SEED)`), given only literals: every such call makes
        the same key, followed under one name."""
        if not isinstance(expr, cst.Call) or not all(
                isinstance(arg.value, (cst.Integer, cst.SimpleString))
                or (isinstance(arg.value, cst.Name) and arg.value.value in ("None", "True",
                                                                            "False"))
                for arg in expr.args):
            return None
        known = self.made_keys.get(id(expr))
        if known is None:
            site = self.sites.get(id(expr))
            value = self.ctx.value(expr.func, site) if site is not None else None
            info = (self.ctx.index.functions.get(value.node)
                    if isinstance(value, FunctionValue) else None)
            makes = info is not None and bool(info.returns) and all(
                isinstance(returned, cst.Call)
                and self.ctx.qualify(returned.func) in ("jax.random.key", "jax.random.PRNGKey")
                for returned in info.returns)
            known = self.made_keys[id(expr)] = (
                "made:" + " ".join(self.ctx.code(expr).split()) if makes else "")
        return known or None

    def _static_method(self, func: cst.BaseExpression, site: CallSite
                       ) -> tuple[cst.FunctionDef, bool] | None:
        """`Noise.sample(key, shape)`: a `@staticmethod` of a class of the file, called on it
        or an instance; or a `@classmethod` (bound: given the class first)."""
        owner = self.ctx.value(func.value, site) if isinstance(func, cst.Attribute) else None
        info = owner.info if (isinstance(owner, (ClassRef, InstanceValue))
                              and owner.path == self.ctx.inference.path) else None
        if info is None and isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name):
            info = classmethod_owner(func.value.value, site.scope)  # `cls.update(...)`
        if info is None or not isinstance(func, cst.Attribute):
            return None
        for item in info.node.body.body:
            kinds = {d.decorator.value for d in getattr(item, "decorators", ())
                     if isinstance(d.decorator, cst.Name)}
            if (isinstance(item, cst.FunctionDef) and item.name.value == func.attr.value
                    and kinds & {"staticmethod", "classmethod"}):
                return item, "classmethod" in kinds
        return None

    def _resolve(self, call: cst.Call
                 ) -> tuple[cst.FunctionDef, bool, bool] | list[Consumption] | None:
        """The project function `call` runs (bound: a method; stepping: jitted), or what a
        library layer it calls consumes."""
        if id(call) in self.resolved:
            return self.resolved[id(call)]
        self.resolved[id(call)] = None
        result = self._resolve_uncached(call)
        self.resolved[id(call)] = result
        return result

    def _resolve_uncached(self, call: cst.Call
                          ) -> tuple[cst.FunctionDef, bool, bool] | list[Consumption] | None:
        last = last_name(call.func)
        if isinstance(call.func, cst.Call):  # `jax.grad(loss)(params)`: the helper it wraps
            last = next((arg.value.value for arg in call.func.args[:1]
                         if isinstance(arg.value, cst.Name)), None)
        if last is None or (last not in self.helpers and last not in self.higher_order
                            and not passes_key(call)):
            return None
        site = self.sites.get(id(call))
        if site is None:
            return None
        value = self.ctx.value(call.func, site)
        static = self._static_method(call.func, site)
        if static is not None:
            return static[0], static[1], compiled_step(static[0], self.ctx.qualify)
        stepping = False
        while isinstance(value, TransformedFunction) and any(
                part in value.transform for part in STEPPING_TRANSFORMS):
            # Jitted or differentiated: a training step, run once per step with new keys.
            value, stepping = value.func, True
        if isinstance(value, ModuleValue) and value.derived_by is None:
            if value.cls is None:
                if value.class_name in RANDOM_LAYERS and not self.library.built_off(value, call):
                    key = key_argument(call, None, "key")
                    return [] if key is None else [Consumption(call, key, self.callee(call))]
                return None
            value = InstanceValue(value.cls.info, value.cls.path)
        if isinstance(value, (InstanceValue, ClassRef)):
            # An instance called runs `__call__`; a class called builds one with `__init__`.
            if value.path != self.ctx.inference.path:
                return None
            method = own_method(value.info, "__call__" if isinstance(value, InstanceValue)
                             else "__init__")
            if method is None:
                return None
            value = FunctionValue(method, bound=True)
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

    def constructs(self, call: cst.Call) -> bool:
        """`call` builds an instance of a class of the file (runs its `__init__`)."""
        resolved = self._resolve(call)
        return isinstance(resolved, tuple) and resolved[0].name.value == "__init__"

    def nested(self, function: cst.FunctionDef | cst.Lambda) -> bool:
        info = self.ctx.index.functions.get(function)
        parent = info.scope.parent if info is not None else None
        return parent is not None and parent.kind == "function"

    def summary(self, node: cst.FunctionDef | cst.Lambda) -> KeyFlow | None:
        """The walk of a function's body: the parameters it consumes (on some path) before
        reassigning them, the enclosing keys it consumes, the consumed keys it returns."""
        owner = self.foreign.owner_of.get(id(node))
        if owner is not None and owner is not self:
            return owner.summary(node)  # summarised by its own file's flow
        if id(node) in self.summaries:
            # Called again while summarised: its summary so far stands for this call (see
            # `key_summary_cycles.py`, which then summarises it again).
            self.cycles.met_again(id(node))
            return self.summaries[id(node)]
        self.summaries[id(node)] = None  # a recursive call consumes nothing we can tell
        if isinstance(node, cst.Lambda) or not self._worth_walking(node):
            return None
        params = [param.name for param in (
            *node.params.posonly_params, *node.params.params, *node.params.kwonly_params)]
        for _ in range(ROUNDS):
            flow = self._new_flow([param.value for param in params], self._scope_of(node))
            mark = self.cycles.start(id(node))
            try:
                flow.run(body_of(node), {param.value: param for param in params})
            finally:
                made = self.cycles.finish(id(node), mark)
            before = self.summaries[id(node)]
            self.summaries[id(node)] = flow
            if made is None or settled(before, flow, _SUMMARY_FACTS):
                break
            for done in made:  # made assuming `before`: asked again when needed
                self.summaries.pop(done, None)
        return flow

    def returned_keys(self, call: cst.Call) -> dict[tuple[int, ...], Consumption]:
        """The keys a project function returns after consuming them, as consumed by `call`."""
        resolved = self._resolve(call)
        if not isinstance(resolved, tuple) or id(resolved[0]) in self.foreign.owner_of:
            return {}
        flow = self.summary(resolved[0])
        if flow is None:
            return {}
        how = self.callee(call)
        return {path: Consumption(call, inner.key, f"{how} (which returns it consumed)",
                                  library=False, via=inner.via or inner, unseen=inner.unseen,
                                  returned_at=flow.returned_at.get(path))
                for path, inner in flow.returned.items() if not inner.repeated}

    # walking ------------------------------------------------------------------------------
    def has_consumers(self) -> bool:  # and the file can run: no import of it fails
        return bool(self.candidates) and not self.raises.module_fails(self.ctx.module)

    def _scope_of(self, node: cst.FunctionDef) -> Scope | None:
        info = self.ctx.index.functions.get(node)
        return None if info is None else info.scope

    def _new_flow(self, params: list[str] | None = None, scope: Scope | None = None) -> KeyFlow:
        """A walk of one body, whose statements all run in `scope` (a walk stops at nested
        functions and classes): the raise proofs need not look it up per statement."""
        flow = KeyFlow(self.consumer, params or (), self.returned_keys, self.constants,
                       self.made_key, self.read_caches)
        raises = self.raises
        # No path goes past a statement proven to raise.
        flow.raises = (raises if scope is None
                       else lambda statement: raises(statement, scope))
        flow.holds = lambda call: values_held(self.ctx, call, self._resolve(call), self.summary)
        return flow

    def _worth_walking(self, node: cst.FunctionDef) -> bool:
        return node.name.value in self.helpers or node.name.value in self.higher_order

    def functions_to_walk(self) -> Iterator[FunctionInfo]:
        return (info for info in self.ctx.index.functions.values()
                if isinstance(info.node, cst.FunctionDef) and self._worth_walking(info.node))

    def walk(self, info: FunctionInfo) -> KeyFlow:
        """The function's walk for its own findings: its summary's walk, the same statements
        and calls (a summary only notes its parameters besides), unless it calls itself."""
        assert isinstance(info.node, cst.FunctionDef)
        summary = self.summary(info.node)
        if summary is not None and id(info.node) not in self.recursive:
            return summary
        if id(info.node) not in self.walks:
            # Its closures summarised while it was (a scan body calling back into the method
            # being summarised): summarised again, now that what they call is known.
            for nested in (self.ctx.index.functions.values() if self.recursive else ()):
                parent = nested.scope.parent
                if (parent is not None and parent.node is info.node
                        and id(nested.node) in self.recursive):
                    self.summaries.pop(id(nested.node), None)
            flow = self._new_flow(scope=info.scope)
            flow.run(body_of(info.node), {param.name.value: param.name for param in (
                *info.node.params.posonly_params, *info.node.params.params,
                *info.node.params.kwonly_params)})
            self.walks[id(info.node)] = flow
        return self.walks[id(info.node)]

    def walk_module(self) -> KeyFlow | None:
        if not any(site.scope.kind == "module" and (
                id(site.node) in self.candidates or last_name(site.node.func) in self.helpers)
                for site in self.ctx.calls()):
            return None
        flow = self._new_flow(scope=self.ctx.index.module_scope)
        # A notebook is run, not imported: its names do not outlive its last cell.
        flow.run(self.ctx.module.body, module=not self.ctx.filename.endswith(".ipynb"))
        return flow

    def is_module(self, info: ClassInfo) -> bool:
        """An Equinox or Flax module: built once (a Flax module per `apply`), then called on
        every step."""
        return self.ctx.inference.is_equinox_module(info) or bool(
            self.library.bases(info.name, set()) & FLAX_MODULES)

    def holds_fixed_key(self, info: ClassInfo, field: str) -> bool:
        return module_holds_fixed_key(self.ctx, info, field)


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
        elif type(value) is cst.Attribute and type(cast(cst.Attribute, value).value) is cst.Name:
            name = cast(cst.Attribute, value).attr.value  # `self.rng`, `state.key`
        else:
            name = None
        if name is not None and reads_as_key(name):
            return True
    return False
