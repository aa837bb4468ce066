"""The key flow of one file: which of its calls consume which keys (a library's consumer, a
transformed function, a function or class of the file whose summary says it consumes its key
parameter), and the summaries of its functions; the walks that find the reuses are
`key_file_walks.FileWalks`.

A function of the file is summarised by walking its body (`KeyFlow`): the parameters it
consumes, the enclosing keys it draws from, the consumed keys it returns. Only functions that
consume a key, directly or through one another, are walked (`helpers`, a cheap gate by name).

Which calls may consume a key at all is `key_candidates.py`; which project function a call runs
is `key_call_targets.py`; what such a call consumes, read from the function's summary,
`key_project_calls.py`; calls of a transformation (`scan`, `vmap`,
`tree_map`, `map`) `key_transforms.py` and the modules it names.
"""

from __future__ import annotations

from copy import copy
from functools import cached_property
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import CallSite, ClassInfo, Scope
from optlint.analysis.key_batch_loops import iterates_batches
from optlint.analysis.key_applied_methods import AppliedMethods
from optlint.analysis.key_call_targets import CallTargets, passes_key
from optlint.analysis.key_callables import HeldCallables
from optlint.analysis.key_candidates import candidates_and_helpers
from optlint.analysis.key_cond_branches import branch_draws
from optlint.analysis.key_copied_state import CopiedStates
from optlint.analysis.key_default_branches import DefaultBranches
from optlint.analysis.key_default_fields import module_holds_fixed_key
from optlint.analysis.key_fields import called_for_effect
from optlint.analysis.key_foreign import ForeignFunctions
from optlint.analysis.key_foreign_silence import ForeignSilence, summarising
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_given import GivenCallables
from optlint.analysis.key_holder_calls import HolderCalls
from optlint.analysis.key_holders import values_held
from optlint.analysis.key_ignored import IgnoredArguments
from optlint.analysis.key_known_names import KnownNames
from optlint.analysis.key_inference_mode import quiet_in_inference
from optlint.analysis.key_literal_branches import LiteralBranches
from optlint.analysis.project_values import ProjectValues, statement_scope
from optlint.analysis.proven_attributes import MissingAttributes
from optlint.analysis.key_name_reads import FileReads
from optlint.analysis.key_made_callables import MadeCallables
from optlint.analysis.key_made_keys import MadeKeys
from optlint.analysis.key_methods import NamedMethods
from optlint.analysis.key_overrides import abstract_kind
from optlint.analysis.key_partial_calls import PartialCalls
from optlint.analysis.key_project_calls import ProjectCall, project_call_uses
from optlint.analysis.key_returned_draws import DrawnReturns
from optlint.analysis.key_selections import alternatives
from optlint.analysis.key_sure_consumptions import surely_consumes
from optlint.analysis.key_summary_cycles import ROUNDS, SummaryCycles, settled
from optlint.analysis.key_library_calls import (
    LibraryKeyCalls,
    draws_nothing,
    frame_readers,
)
from optlint.analysis.key_syntax import (
    body_of,
    module_constants,
    param_owner,
    reads_as_key,
)
from optlint.analysis.key_texts import called_text
from optlint.analysis.key_unset_params import with_unset_params
from optlint.analysis.key_transforms import (
    TransformedKeyCalls,
)
from optlint.analysis.prng_keys import Consumption, Silent
from optlint.analysis.values import FunctionValue
from optlint.analysis.proven_raises import ProvenRaises

if TYPE_CHECKING:
    from optlint.context import RuleContext

# The base classes of Flax modules.
FLAX_MODULES = frozenset({"flax.linen.Module", "flax.linen.module.Module"})
# What callers read of a summary: a cycle's summaries are made again until these agree.
_SUMMARY_FACTS = ("consumed_params", "returned", "free_uses", "attribute_uses")


class FileKeyCalls:
    """Which calls of one file consume which keys, the summaries of the file's functions, and
    the walks of their bodies, shared by the checks of one file."""

    def __init__(self, ctx: RuleContext, owners: dict | None = None) -> None:
        self.ctx = ctx
        # Functions of other project files the file's calls run, summarised by their files.
        own = owners is None  # the file being linted (else a flow for another file's lookups)
        owners = {} if owners is None else owners
        owners.setdefault(ctx.inference.path or ctx.filename, self)
        self.foreign = ForeignFunctions(ctx, FileKeyCalls, owners)
        self.sites: dict[int, CallSite] = {id(site.node): site for site in ctx.calls()}
        self.summaries: dict[int, KeyFlow | None] = {}
        self.callees: dict[int, str] = {}
        # The functions being summarised, and those whose summary met a call of themselves.
        self.cycles = SummaryCycles()
        self.library = LibraryKeyCalls(ctx, self.sites, self.callee)
        # The project function each call runs.
        self.targets = CallTargets(ctx, self.sites, self.callee, self.library, self.foreign,
                                   summarised=own)
        # `prng_key()`: a call making a key from constants alone, followed under one name.
        self.made_key = MadeKeys(ctx, self.sites)
        self._raising: dict[int, bool] = {}  # by statement: proven to raise
        self._code: str | None = None  # the file's text (`module_code`)
        self.transformed = TransformedKeyCalls(self)
        self.held = HeldCallables(self)
        self.given = GivenCallables(self)
        self.named = NamedMethods(self)
        self.made = MadeCallables(self)
        self.partials = PartialCalls(self)
        self.applied = AppliedMethods(self, self.library.bases)
        self.copied = CopiedStates(ctx, self.sites)  # what calls return copies of
        self.holder_calls = HolderCalls(ctx)
        self.branches = LiteralBranches()  # parameters a call's literal arguments leave unread
        # What each call consumes as a library's consumer, worked out once: every walk asks.
        self._library_uses: dict[int, list[Consumption]] = {}
        # What each other call of the file consumes, once known for good (`consumer`).
        self._consumed: dict[int, list[Consumption]] = {}
        # By method: whether it changes its object or what it is given (a walk of its body,
        # asked at each of its calls: `_for_effect`).
        self._effects: dict[int, bool] = {}
        # Calls that consume a key by themselves, or may (a layer or model called with `key=`).
        self.candidates, found = candidates_and_helpers(ctx, self.library, self.targets,
                                                        self._library_uses)
        self.helpers = found.consuming
        self.stream_drawers = found.drawing
        self.higher_order = found.higher_order  # functions calling a function they are given
        self.targets.helpers, self.targets.higher_order = self.helpers, self.higher_order
        self.targets.overrides.summary = self.summary  # the file's own overrides
        # What records nothing: the walk gate's answers (the linted file), or asked here.
        self.silent: Silent | None = None if own else ForeignSilence(self)

    # What only walks ask, made at the first: most files with a call that may consume a key
    # have no function worth walking.
    @cached_property
    def _values(self) -> ProjectValues:
        return ProjectValues(self.ctx.inference, self.sites)  # what the project's files prove

    @cached_property
    def read_caches(self) -> FileReads:
        """What each statement reads, for every walk of the file."""
        reads = FileReads(frames=frame_readers(self.ctx), library=self.library,
                          ignored=IgnoredArguments(self._values),
                          returned=DrawnReturns(self.targets.resolve, self.summary,
                                                self.library.consumptions,
                                                lambda call: id(call) in self.targets.differentiated))
        reads.raises = self.raises.scopeless  # a walk of reads ends at a raise
        return reads

    @cached_property
    def raises(self) -> ProvenRaises:
        return ProvenRaises(self.ctx.inference, self.ctx.filename, self.targets.resolve,
                            MissingAttributes(self._values, statement_scope(self.ctx.index)))

    @cached_property
    def constants(self) -> KnownNames:
        return module_constants(self.ctx.index)

    @cached_property
    def default_branches(self) -> DefaultBranches:
        return DefaultBranches(self.ctx)

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

    def consumer(self, call: cst.Call, silent: Silent | None = None) -> list[Consumption]:
        """What `call` consumes (nothing, unsummarised, of a function `silent` says records none)."""
        if draws_nothing(call):
            return []
        direct = self._library_uses.get(id(call))
        if direct is None:
            direct = self.library.consumptions(call)
            if id(call) in self.sites:  # (not one a summary of another file meets)
                self._library_uses[id(call)] = direct  # a call the candidates skipped
        if direct:
            # A consumption of its own each time, as when worked out anew: walks tell the
            # consumptions they record apart by identity.
            return [copy(use) for use in direct]
        known = self._consumed.get(id(call))
        if known is not None:
            return [copy(use) for use in known]
        found = self._project_consumer(call, silent or self.silent)
        if found is None:  # (not kept: not worked out)
            return []
        if self.cycles.stack or id(call) not in self._library_uses:
            return found
        # Worked out with no summary being made: every summary it read is final, so the
        # answer is too (the gate asks first, then the walk, and the loops' second walks).
        self._consumed[id(call)] = found
        return [copy(use) for use in found]

    def forget_consumed(self) -> None:
        """Drops what calls were worked out to consume: a summary they read is made again."""
        self._consumed.clear()
        self.named.groups.forget()

    def _project_consumer(self, call: cst.Call, silent: Silent | None = None
                          ) -> list[Consumption] | None:
        """What a transformation's or project function's call consumes (None: `silent`'s)."""
        transformed = self.transformed.consumptions(call)
        if transformed is not None:
            return transformed
        resolved = self.targets.resolve(call)
        if resolved is None:
            site = self.sites.get(id(call))
            if site is None or not passes_key(call):
                return []
            return (self.partials.consumptions(call, site)
                    or self.held.consumptions(call, site) or self.given.consumptions(call, site)
                    or self.named.consumptions(call, site)
                    or self.applied.consumptions(call, site) or self.made.consumptions(call, site))
        if isinstance(resolved, list):
            return resolved
        function, bound, stepping = resolved
        if bound and abstract_kind(function, self.ctx.qualify) == "abstract":
            # What runs is an override: the keys the object holds that every override draws.
            abstract = self.targets.objects.abstract(FunctionValue(function, bound=True))
            if abstract is not None:
                from optlint.analysis.key_abstract_fields import abstract_held_uses  # seldom
                held = abstract_held_uses(self.ctx, self.targets.overrides, abstract, call,
                                          self.callee(call))
                if held:
                    return held
        if silent is not None and silent(function):
            return None
        owner = self.foreign.owner_of.get(id(function))
        if owner is not None and owner is not self and owner.records_nothing(function):
            return None  # of another file, whose flow tells
        flow = self.summary(function)
        if flow is None or (id(call) in self.targets.in_inference
                            and quiet_in_inference(self, function, flow)):
            return []
        if bound and self._for_effect(function):
            self.library.keeping.add(id(call))  # `self.init()` keeps its draw in the object
        foreign = id(function) in self.foreign.owner_of
        return project_call_uses(self.ctx, ProjectCall(
            call, function, bound, stepping, flow, self.callee(call), foreign,
            self.nested(function), id(call) in self.targets.class_known), self.branches, self.held)

    def _for_effect(self, method: cst.FunctionDef) -> bool:
        known = self._effects.get(id(method))
        if known is None:
            known = self._effects[id(method)] = called_for_effect(self.ctx.index, method)
        return known

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

    def surely_consumes(self, use: Consumption) -> bool:
        """The call of `use` consumes its key on every path (`key_sure_consumptions.py`)."""
        return surely_consumes(use, self.targets.resolve, self.summary,
                               self.partials.surely_consumes)

    def constructs(self, call: cst.Call) -> bool:
        """`call` builds an instance of a class of the file (runs its `__init__`)."""
        resolved = self.targets.resolve(call)
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
        if isinstance(node, cst.Lambda) or not self.worth_walking(node):
            return None
        params = [param.name for param in (
            *node.params.posonly_params, *node.params.params, *node.params.kwonly_params)]
        for _ in range(ROUNDS):
            flow = self.new_flow([param.value for param in params], self._scope_of(node))
            mark = self.cycles.start(id(node))
            try:
                with summarising(not self.targets.summarised):
                    flow.run(body_of(node), {param.value: param for param in params})
            finally:
                made = self.cycles.finish(id(node), mark)
            before = self.summaries[id(node)]
            self.summaries[id(node)] = flow
            if made is None or settled(before, flow, _SUMMARY_FACTS):
                break
            for done in made:  # made assuming `before`: asked again when needed
                self.summaries.pop(done, None)
                if isinstance(self.silent, ForeignSilence):
                    self.silent.forget(done)
        return flow

    def records_nothing(self, function: cst.FunctionDef) -> bool:
        """`function` records no consumption, told by a lookup flow without its summary."""
        return isinstance(self.silent, ForeignSilence) and self.silent(function)

    def returned_keys(self, call: cst.Call, silent: Silent | None = None
                      ) -> dict[tuple[int, ...], Consumption]:
        """The keys a project function returns after consuming them, as consumed by `call`
        (none where `silent` says it records no consumption)."""
        resolved, silent = self.targets.resolve(call), silent or self.silent
        if not isinstance(resolved, tuple) or id(resolved[0]) in self.foreign.owner_of or (
                silent is not None and silent(resolved[0])):
            return {}
        flow = self.summary(resolved[0])
        if flow is None:
            return {}
        how = self.callee(call)
        return {path: Consumption(call, inner.key, f"{how} (which returns it consumed)",
                                  library=False, via=inner.via or inner, unseen=inner.unseen,
                                  returned_at=flow.returned_at.get(path), proof=inner.proof)
                for path, inner in flow.returned.items() if not inner.repeated}

    # walks ----------------------------------------------------------------------------------
    def has_consumers(self) -> bool:
        return bool(self.candidates)

    def can_run(self) -> bool:
        """No top-level import of the file fails (else none of its code ever runs)."""
        return not self.raises.module_fails(self.ctx.module)

    def _scope_of(self, node: cst.FunctionDef) -> Scope | None:
        info = self.ctx.index.functions.get(node)
        return None if info is None else info.scope

    def new_flow(self, params: list[str] | None = None, scope: Scope | None = None) -> KeyFlow:
        """A walk of one body, whose statements all run in `scope` (a walk stops at nested
        functions and classes): the raise proofs need not look it up per statement."""
        constants = self.constants if scope is None or scope.kind != "function" else \
            with_unset_params(self.ctx, self.constants, self.ctx.index.functions.get(scope.node))
        flow = KeyFlow(self.consumer, params or (), self.returned_keys, constants,
                       self.made_key, self.read_caches)
        flow.default_test = self.default_branches.tester(scope)
        raises, known = self.raises, self._raising

        def proven_to_raise(statement: cst.BaseSmallStatement) -> bool:
            # Asked again of each statement by loops' second walks and summaries made again.
            answer = known.get(id(statement))
            if answer is None:
                answer = known[id(statement)] = raises(statement, scope)
            return answer

        # No path goes past a statement proven to raise.
        flow.raises = proven_to_raise
        flow.raising_call = raises.raising_call  # (its arguments still run)
        flow.holds = lambda call: values_held(self.ctx, call, self.targets.resolve(call), self.summary)
        flow.copies, flow.holder_calls = self.copied.copy_of, self.holder_calls
        flow.branches = lambda call: branch_draws(self, call)
        flow.alternatives = lambda call: alternatives(self.ctx, call)
        flow.batch_loop = lambda loop: iterates_batches(self.ctx, loop, scope)
        return flow

    def worth_walking(self, node: cst.FunctionDef) -> bool:
        return node.name.value in self.helpers or node.name.value in self.higher_order

    def is_module(self, info: ClassInfo) -> bool:
        """An Equinox or Flax module: built once (a Flax module per `apply`), then called on
        every step."""
        return self.ctx.inference.is_equinox_module(info) or bool(
            self.library.bases(info.name, set()) & FLAX_MODULES)

    def holds_fixed_key(self, info: ClassInfo, field: str) -> bool:
        return module_holds_fixed_key(self.ctx, info, field)

