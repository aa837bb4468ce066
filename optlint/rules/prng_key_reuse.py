"""OPT020 prng-key-reuse: one `jax.random` key consumed twice.

A JAX key is a value, not a generator: every sampler given the same key returns the same bits. Two
samplers (or a sampler and `split`, or two dropout layers) given one key draw identical or
correlated numbers; a key consumed in a loop body that never re-splits it draws the same numbers
on every iteration; a key stored on an Equinox (or Flax) module in `__init__` and consumed in
`__call__` gives the same dropout mask or noise on every training step. Nothing raises: training
just gets the wrong randomness. The key-flow analysis is `optlint.analysis.key_calls` (and the
modules `optlint.analysis.prng_keys` lists); a key passed to a function the analysis cannot see
is never a finding. Which reuses are reported, leaving out those real code makes on purpose, is
`optlint.analysis.key_reported_reuses`; `optlint.rule_helpers.key_messages` says how they read.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from functools import partial

import libcst as cst

from optlint.analysis.index import FunctionInfo
from optlint.analysis.key_calls import FileKeyCalls
from optlint.analysis.key_callee_uses import callee_use
from optlint.analysis.key_fields import (
    compiled_step,
    set_on_class,
    set_when_built,
)
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_bound_partials import bound_partials
from optlint.analysis.key_constant_seeds import constant_seed_draws
from optlint.analysis.key_copied_state import hands_back_field
from optlint.analysis.key_default_fields import default_keys
from optlint.analysis.key_handouts import kept_handouts
from optlint.analysis.key_lifted_streams import unsplit_streams
from optlint.analysis.key_reported_reuses import worth_reporting
from optlint.analysis.key_returned_batchings import returned_batchings
from optlint.analysis.key_numpy_draws import unlike_numpy_draws
from optlint.analysis.key_fixed_closures import fixed_closure_keys
from optlint.analysis.key_trace_time import traced_draws
from optlint.analysis.key_file_walks import FileWalks
from optlint.analysis.key_unset_params import skipped_rebinding
from optlint.analysis.key_field_aliases import field_alias
from optlint.analysis.key_unadvanced_fields import unadvanced_draws
from optlint.analysis.prng_keys import Consumption, Reuse
from optlint.context import RuleContext
from optlint.rule_helpers.key_messages import (
    bound_partial_finding,
    constant_seed_finding,
    default_key_finding,
    fixed_closure_finding,
    key_text,
    reported_at,
    reuse_finding,
    traced_finding,
    unsplit_stream_finding,
)
from optlint.rule_helpers.key_direct_pairs import same_key_pair
from optlint.rule_helpers.key_handed_back_findings import kept_findings, stored_findings
from optlint.rule_helpers.key_handout_messages import kept_handout_finding
from optlint.rule_helpers.key_returned_batching_messages import returned_batching_finding
from optlint.rule_helpers.key_method_order_findings import ordered_draw_findings
from optlint.rules.base import Finding, Rule, RuntimeCheck

class PrngKeyReuse(Rule):
    code = "OPT020"
    runtime_check = RuntimeCheck("keys", probe="prng_keys:keys_differ")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        analysis = FileKeyCalls(ctx)
        try:
            found = list(self._check(ctx, analysis))
            # A file one of whose imports fails never runs: asked only of a file with findings
            # (most have none, and the question may read other project files).
            if found and analysis.can_run():
                yield from found
        finally:  # its walks hold its bound methods: a cycle that would keep the file's tree
            # alive until the garbage collector's next full pass (so do the flows of the other
            # files it read that their evaluators do not keep for the run, this one among them)
            analysis.foreign.release()

    def _check(self, ctx: RuleContext, analysis: FileKeyCalls) -> Iterator[Finding]:
        if not analysis.has_consumers():
            return
        reported: set[int] = set()
        walks = FileWalks(analysis)
        for info in walks.functions_to_walk():
            flow = walks.walk(info)
            # A reuse only `--preview` shows gives way to a proven finding at the same call
            # (the key a module holds, drawn from on every step).
            unproven: dict[int, Finding | None] = {}
            for reuse in flow.reuses.values():
                at = id(reported_at(reuse.second))
                if at not in reported and at not in unproven and worth_reporting(
                        reuse, flow, ctx, analysis):
                    # None: a `--preview` finding not asked for, not worded (it still holds
                    # its call, as a worded one would).
                    unproven[at] = None
                    for finding in self._reuse_finding(ctx, reuse, analysis, flow):
                        if finding.unproven is None:
                            del unproven[at]
                            reported.add(at)
                            if reuse.second.seeded_in is not None:  # reported for its callee
                                reported.add(id(reuse.second.seeded_in))
                            yield finding
                        else:
                            unproven[at] = finding
            yield from self._field_findings(ctx, analysis, info, flow, reported)
            for at, held in unproven.items():
                if at not in reported:
                    reported.add(at)
                    if held is not None:
                        yield held
            yield from self._class_key_findings(ctx, info, flow, reported)
            yield from self._unadvanced_findings(ctx, info, flow, reported)
            yield from stored_findings(ctx, info, flow, reported)
            yield from kept_findings(ctx, flow, reported)
        module_flow = walks.walk_module()
        if module_flow is not None:
            for reuse in module_flow.reuses.values():
                if id(reported_at(reuse.second)) not in reported and worth_reporting(
                        reuse, module_flow, ctx, analysis):
                    reported.add(id(reported_at(reuse.second)))
                    yield from self._reuse_finding(ctx, reuse, analysis, module_flow)
        for found in traced_draws(ctx):  # keys fixed while `jax.jit` traces
            if id(found.draw) not in reported:
                reported.add(id(found.draw))
                yield traced_finding(ctx, found)
        for fixed in fixed_closure_keys(ctx):  # keys made from a factory's seed
            if id(fixed.draw) not in reported and id(fixed.made) not in reported:
                reported.update((id(fixed.draw), id(fixed.made)))
                yield fixed_closure_finding(ctx, fixed)
        for default in default_keys(ctx, analysis.library.consumptions):  # a default key
            yield default_key_finding(ctx, default)
        for bound in bound_partials(ctx):  # `partial(model.apply, rngs={...: key})` kept
            if id(bound.partial) not in reported:
                reported.add(id(bound.partial))
                yield bound_partial_finding(ctx, bound)
        for unsplit in unsplit_streams(ctx):  # `nn.scan(..., split_rngs={"dropout": False})`
            yield unsplit_stream_finding(ctx, unsplit)
        yield from map(partial(kept_handout_finding, ctx), kept_handouts(ctx))  # a key pool
        for handed in returned_batchings(analysis):  # `return shard_map(f, in_specs=P())`
            if id(handed.draw.call) not in reported:
                reported.add(id(handed.draw.call))
                yield returned_batching_finding(ctx, handed)
        yield from ordered_draw_findings(ctx, analysis, walks.walk, reported)  # `fit` before `predict`
        for constant in constant_seed_draws(ctx, analysis.consumer):  # `key(0)` made where a step runs
            if constant.unseen and not ctx.wants_unproven:
                continue
            if id(constant.draw) not in reported and id(constant.made) not in reported:
                reported.add(id(constant.draw))
                yield constant_seed_finding(ctx, constant)

    def _reuse_finding(self, ctx: RuleContext, reuse: Reuse, analysis: FileKeyCalls,
                       flow: KeyFlow) -> Iterator[Finding]:
        """The finding for a reported reuse; none where it is `--preview` only and the caller
        drops those (its message's line numbers would cost the positions of its nodes)."""
        unseen = next((use.unseen for use in (reuse.first, reuse.second, reuse.second.closed)
                       if use is not None and use.unseen), "")
        if not unseen and reuse.first.generator and reuse.second.generator:
            # Two NumPy generators seeded alike, seen drawing unlike values.
            unseen = unlike_numpy_draws(ctx, reuse.first.call, reuse.second.call)
        if unseen and not ctx.wants_unproven:
            return
        # Worded for the pair JAX's checker raises on (`key_direct_pairs`); reported or not
        # as the flow's pair is.
        reuse = same_key_pair(ctx, reuse, flow)
        finding = reuse_finding(ctx, reuse, analysis, flow)
        inner = callee_use(analysis, reuse.second) if not reuse.second.repeated else None
        if inner is not None and ctx.site_of(inner.call) is not None:
            finding.roles.setdefault("consumed_in", inner.call)  # where the callee consumes it
        # A reuse resting on a function the analysis cannot see draw: `--preview` only.
        if unseen and finding.unproven is None:
            yield replace(finding, unproven=unseen)
            return
        proof = next((use.proof for use in (reuse.first, reuse.second) if use.proof), "") \
            or skipped_rebinding(flow.constants, key_text(ctx, reuse.second))
        if not proof:
            yield finding
            return
        # The proof goes before the `[preview: ...]` the finding adds again when remade.
        shown = finding.message
        if finding.unproven is not None:
            shown = shown[:-len(f" [preview: {finding.unproven}]")]
        yield replace(finding, message=f"{shown} ({proof})")

    def _field_findings(self, ctx: RuleContext, analysis: FileKeyCalls, info: FunctionInfo,
                        flow: KeyFlow, reported: set[int]) -> Iterator[Finding]:
        node = info.node
        scope = info.scope
        owner = scope.owner
        if not isinstance(node, cst.FunctionDef) or owner is None or scope.self_name is None:
            return
        # A module's `__call__` runs once per step; so does any method compiled as a step
        # (`@partial(jax.jit, static_argnums=(0,))`), whatever its class.
        module = node.name.value == "__call__" and analysis.is_module(owner)
        if not module and not compiled_step(node, ctx.qualify):
            return
        for use, key in _self_key_uses(flow, scope.self_name, reported):
            if use.kind in ("fold", "seed"):
                continue
            field = key.attr.value
            if not set_when_built(owner, field) or hands_back_field(node, scope.self_name, field) or (
                    module and not analysis.holds_fixed_key(owner, field)):
                continue
            reported.add(id(use.call))
            step = "every training step" if module else f"`{node.name.value}` is compiled as a step"
            message = (f"`{ctx.code(key)}` is a key stored on {'module' if module else 'class'} "
                       f"`{owner.name}` and consumed by `{use.how}` in `{node.name.value}`: "
                       f"every call ({step}) draws the same random numbers, e.g. the same "
                       f"dropout mask")
            yield Finding(use.call, message, fix_title=(
                f"Pass a fresh key to `__call__`, or fold in a per-call value "
                f"(`jax.random.fold_in({ctx.code(key)}, step)`)"))

    def _class_key_findings(self, ctx: RuleContext, info: FunctionInfo, flow: KeyFlow,
                            reported: set[int]) -> Iterator[Finding]:
        """A method consuming `self.<field>` where the key is the class's (a classmethod sets
        `cls.<field>`, no constructor sets one per instance) and the method stores the next key
        on the instance: every new instance consumes the class's key again."""
        owner, self_name = info.scope.owner, info.scope.self_name
        if owner is None or self_name is None:
            return
        for use, key in _self_key_uses(flow, self_name, reported):
            if use.kind not in ("draw", "split") or not any(
                    binding.scope is info.scope
                    for binding in owner.attributes.get(key.attr.value, [])):
                continue
            setter = set_on_class(owner, key.attr.value)
            if setter is None:
                continue
            reported.add(id(use.call))
            message = (f"`{ctx.code(key)}` reads the key `{setter.name.value}` keeps on class "
                       f"`{owner.name}` until this instance stores its own: every new instance "
                       f"consumes the class's key again in `{use.how}`, so instances draw the "
                       f"same random numbers")
            yield Finding(use.call, message, fix_title=(
                f"Split the class's key and store it back on the class (`cls = type(self)`, "
                f"`cls.{key.attr.value}, subkey = jax.random.split(cls.{key.attr.value})`)"))

    def _unadvanced_findings(self, ctx: RuleContext, info: FunctionInfo, flow: KeyFlow,
                             reported: set[int]) -> Iterator[Finding]:
        """A method drawing from `self.<key>` as it is, where the class's other methods split
        it before drawing (`key_unadvanced_fields.py`)."""
        if info.scope.self_name is None:
            return
        uses = [*_self_key_uses(flow, info.scope.self_name, reported),
                *_aliased_key_uses(ctx, info, flow, reported)]
        for found in unadvanced_draws(ctx, info, uses):
            reported.add(id(found.use.call))
            key = ctx.code(found.key)
            if found.stepped:
                yield Finding(found.use.call, (
                    f"`{key}` is consumed by `{found.use.how}` in `{found.method}`, and only a "
                    f"constructor sets it: {found.stepped} on one object in every step, so "
                    f"every step draws the same random numbers"), fix_title=(
                    f"Advance the key in `{found.method}`: `{key}, key = "
                    f"jax.random.split({key})`, and draw from `key`"))
                continue
            others = " and ".join(f"`{name}`" for name in found.advancing)
            message = (f"`{key}` is consumed by `{found.use.how}` in `{found.method}`, which never "
                       f"advances it, while {others} split it before drawing: the next call of "
                       f"`{found.method}` draws the same random numbers, and a split of the key "
                       f"after it reuses what it drew from")
            yield Finding(found.use.call, message, fix_title=(
                f"Advance the key first, as in {others}: `{key}, key = "
                f"jax.random.split({key})`, and draw from `key`"))


def _self_key_uses(flow: KeyFlow, self_name: str,
                   reported: set[int]) -> Iterator[tuple[Consumption, cst.Attribute]]:
    """The consumptions of a key the object holds (`self.key`), each once, not yet reported, and
    neither repeated by a loop nor resting on a function the analysis cannot see."""
    for use in flow.every:
        key = use.key
        if (not use.repeated and not use.unseen and id(use.call) not in reported
                and isinstance(key, cst.Attribute) and isinstance(key.value, cst.Name)
                and key.value.value == self_name):
            yield use, key


def _aliased_key_uses(ctx: RuleContext, info: FunctionInfo, flow: KeyFlow,
                      reported: set[int]) -> Iterator[tuple[Consumption, cst.Attribute]]:
    """The consumptions of a key the object holds under a local name (`k = self.key`, then
    `split(k)`; `key_field_aliases.py`), as `_self_key_uses`."""
    for use in flow.every:
        if use.repeated or use.unseen or id(use.call) in reported:
            continue
        field = field_alias(ctx, info.scope, use)
        if field is not None:
            yield use, field
