"""Keys consumed by a function a transformation runs many times: a `jax.lax.scan` /
`fori_loop` / `while_loop` body drawing from a key it closes over or carries back unchanged, a
function `tree_map`ped over leaves closing over a key; and, in modules of their own, a function
batched by `jax.vmap` / `pmap` with its key broadcast or replicated (`key_batching.py`), Haiku /
Flax NNX batching that gives every row the same rng stream (`key_stream_batching.py`), and
`map` over an iterable repeating one key (`key_item_maps.py`). Each is one key drawn from on
every step or row."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.index import CallSite
from optlint.analysis.key_batched_args import mapped_partial, partial_function
from optlint.analysis.key_batched_partials import BatchedPartials
from optlint.analysis.key_batching import batched_consumptions
from optlint.analysis.key_carried_in import carried_in
from optlint.analysis.key_model_loops import BATCHING, LOOP_BODIES, TREE_MAPS, LoopBody
from optlint.analysis.key_model_objects import CALLED_ONCE
from optlint.analysis.key_model_streams import STATEFUL_BATCHING, STREAM_BROADCASTS
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_item_maps import item_map, item_mapped
from optlint.analysis.key_scanned_copies import scanned_copies
from optlint.analysis.key_stream_batching import stream_broadcast
from optlint.analysis.key_transformed_bodies import (
    closed_over,
    closure_uses,
    function_arg,
    lambda_flow,
)
from optlint.analysis.key_record import STEPS, KeyRecorder
from optlint.analysis.prng_keys import FOLDED_WITH, Consumption

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView
    from optlint.context import RuleContext


class TransformedKeyCalls:
    """The transformed calls of one file, read with the file's summaries (`calls`)."""

    def __init__(self, calls: KeyCallsView) -> None:
        self.calls = calls
        self.ctx = calls.ctx
        self.sites = calls.sites
        # The file's calls found to be none of these (asked again by every walk that meets
        # them): by id.
        self._plain: set[int] = set()

    def _carried_back(self, flow: KeyFlow, carry: tuple[int, ...], qualified: str
                      ) -> list[Consumption]:
        """The carry handed back with a key the step consumed: the next step draws again."""
        split = {id(use) for made in flow.derived_uses.values() for use in made}
        return [replace(inner, repeated=True, over=qualified, carried_on=id(inner) in split)
                for path, inner in flow.returned.items()
                if path[:len(carry)] == carry and not inner.repeated]

    def _tree_mapped(self, call: cst.Call, qualified: str) -> list[Consumption]:
        """`tree_map(lambda leaf: ... normal(key, ...), tree)`: a key the mapped function closes
        over is drawn from once per leaf, the same numbers for every leaf."""
        arg = argument(call, 0, "f")
        function: cst.CSTNode | None = arg.value if arg is not None else None
        site = self.sites.get(id(call))
        if isinstance(function, cst.Name) and site is not None:
            binding = self.ctx.binding(function.value, site)
            function = (binding.value if binding is not None and not binding.path
                        and isinstance(binding.value, cst.Lambda) else
                        binding.node if binding is not None
                        and isinstance(binding.node, cst.FunctionDef) else None)
        if isinstance(function, cst.Lambda):
            flow: KeyFlow | None = lambda_flow(self.calls, function)
        elif isinstance(function, cst.FunctionDef) and self.calls.nested(function):
            flow = self.calls.summary(function)
        else:
            return []
        if flow is None:
            return []
        return closed_over(self.calls, call, flow, f"{qualified} (a key closed over)")

    def consumptions(self, call: cst.Call) -> list[Consumption] | None:
        """A `jax.lax` loop or a batching transformation applied to a project function: the
        keys its body consumes once per step or per row (None: not such a call)."""
        if id(call) in self._plain:
            return None
        site = self.sites.get(id(call))
        qualified = aliased_qualify(self.ctx, call.func, site) if site is not None else None
        if qualified in TREE_MAPS:
            return self._tree_mapped(call, qualified)
        loop = LOOP_BODIES.get(qualified) if qualified is not None else None
        if qualified is not None and loop is not None:
            given = loop_body(loop, call)
            if given is not None and isinstance(given.value, cst.Lambda):
                # `lax.map(lambda x: draw(x, key), xs)`: the key it closes over, every step.
                return closed_over(self.calls, call, lambda_flow(self.calls, given.value),
                                   f"{qualified} (a key closed over)")
            body = function_arg(self.calls, call, loop.position, loop.keyword)
            flow = self.calls.summary(body) if body is not None else None
            partial = (mapped_partial(self.ctx, call, site, loop.position, loop.keyword)
                       if body is None and site is not None else None)
            if partial is not None:  # `lax.map(partial(draw, key=key), xs)`: every step
                uses = BatchedPartials(self.calls).consumptions(call, qualified, *partial, ())
                # `scan(partial(self.body, kernel), (key, x))`: the carry the function it
                # wraps hands back (flowMC fa16c10).
                wrapped = (partial_function(self.ctx, partial[1], site, bound=True)
                           if site is not None else None)
                flow = self.calls.summary(wrapped) if wrapped is not None else None
                if flow is None or loop.carry is None:
                    return uses
                return uses + self._carried_back(flow, loop.carry, qualified)
            if body is None or flow is None:
                return []
            uses = closure_uses(self.calls, call, body, flow, qualified)
            uses += scanned_copies(self.calls, call, body, flow, qualified)
            # `fold_in(key, i)` with the step index: every run of the loop folds the enclosing
            # key with the same indices (`key_project_calls.fixed_fold_uses`).
            uses += [Consumption(call, inner.key, self.calls.callee(call), library=False,
                                 followed=f"{base}{FOLDED_WITH}{STEPS}`{qualified}`")
                     for base, inner in index_folds(loop, call, flow).items()]
            if loop.carry is not None:
                uses += self._carried_back(flow, loop.carry, qualified)
                uses += carried_in(call, body, flow, qualified, self.calls.callee(call),
                                   self.ctx)
            return uses
        if site is not None and item_map(self.ctx, call, site):
            return item_mapped(self.calls, call, site)
        if isinstance(call.func, cst.Call) and self.ctx.qualify(call.func.func) in CALLED_ONCE:
            given = argument(call.func, 0, "fun")
            if given is not None and isinstance(given.value, cst.Lambda):
                # `jax.grad(lambda p: loss(p, key))(params)`: the lambda runs once, here.
                return [Consumption(call, inner.key, self.calls.callee(inner.call),
                                    library=False, unseen=inner.unseen, proof=inner.proof)
                        for inner in lambda_flow(self.calls, given.value)
                        .free_consumed().values() if not inner.repeated]
        stream = stream_broadcast(self.calls, call)
        if stream is not None:
            return stream
        batched = batched_consumptions(self.calls, call, site)
        if batched is None and site is not None:
            # What makes it none of these is fixed for the file's run.
            self._plain.add(id(call))
        return batched


def aliased_qualify(ctx: RuleContext, func: cst.BaseExpression, site: CallSite) -> str | None:
    """The qualified name of `func`, also through a local alias (`tree_map = tree_util.tree_map`
    then `tree_map(...)`)."""
    qualified = ctx.qualify(func)
    if qualified is not None or not isinstance(func, cst.Name):
        return qualified
    binding = ctx.binding(func.value, site)
    if (binding is not None and binding.kind == "assign" and not binding.path
            and isinstance(binding.value, (cst.Name, cst.Attribute))):
        return ctx.qualify(binding.value)
    return None


def runs_per_step_or_row(ctx: RuleContext, site: CallSite) -> bool:
    """A `jax.lax` loop, or a batching transformation's result called."""
    call = site.node
    qualified = aliased_qualify(ctx, call.func, site)
    if qualified in LOOP_BODIES:
        return True
    if qualified in TREE_MAPS:
        return bool(call.args) and isinstance(call.args[0].value, (cst.Lambda, cst.Name))
    if item_map(ctx, call, site):
        return len(call.args) > 1
    return isinstance(call.func, cst.Call) and (
        ctx.qualify(call.func.func) in BATCHING or ctx.qualify(call.func.func) in STREAM_BROADCASTS
        or ctx.qualify(call.func.func) in STATEFUL_BATCHING)


def loop_body(loop: LoopBody, call: cst.Call) -> cst.Arg | None:
    """The body `call`, a `jax.lax` loop of row `loop`, is given."""
    return argument(call, loop.position, loop.keyword)


def index_folds(loop: LoopBody, call: cst.Call, flow: KeyRecorder) -> dict[str, Consumption]:
    """The enclosing keys the body (its walk `flow`) folds with the step index it is given,
    where the loop counts from a literal (`fori_loop(0, n, body, init)`): every run of the loop
    folds them with the same indices. By the name the key is followed under."""
    if loop.index is None or loop.first_index is None:
        return {}
    first = argument(call, *loop.first_index)
    if first is None or not isinstance(first.value, cst.Integer):
        return {}
    return flow.param_folds.get(loop.index, {})
