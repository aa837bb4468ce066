"""OPT008 clip-after-optimizer: a clipping transformation chained after one that already produced
the update (`chain(adam(lr), clip_by_global_norm(1.0))`).

Clipping is meant for the gradients. After an optimizer (or `scale_by_learning_rate`) the chain
holds the update, already scaled by the learning rate: the clip compares its threshold with that
update, and a gradient spike goes through the optimizer, and into its moment estimates, unclipped.
Measured on optax 0.2.8: with a 300x gradient spike, `chain(adam(1e-3), clip_by_global_norm(1.0))`
gives updates bitwise identical to plain `adam` on a small model (the update norm stays near
lr * sqrt(n), far below 1.0), and the spike shrinks every later update 3x; clipping first keeps them.
A clip after a transformation that is not final (`scale_by_adam()` before `scale_by_learning_rate`)
clips the normalised direction, a known deliberate choice (Adafactor's update clipping): not
reported.
"""

from __future__ import annotations

from collections.abc import Iterator

from optlint.analysis.optax_chain_order import Step, application_orders
from optlint.context import RuleContext
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck
from optlint.rule_helpers.chain_order import (
    MisorderedChain,
    display,
    reported_chains,
    moved_argument,
    same_top,
)


def _final(step: Step) -> bool:
    return step.table.final_update and not step.masked


def _clips(step: Step) -> bool:
    return step.table.clips


def _shapes_update(step: Step | None) -> bool:
    """A step that starts the optimizer proper: clipping must come before it."""
    return step is None or (step.table.final_update or step.table.scale_invariant
                            or step.table.per_param_state or step.table.scales_by_learning_rate)


class ClipAfterOptimizer(Rule):
    code = "OPT008"
    runtime_check = RuntimeCheck("transform", probe="chain_order:clip_meets_gradients")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for found, node in reported_chains(ctx, 1, _final, _clips):
            optax = ctx.import_alias("optax", "optax")
            clip_name, optimizer_name = display(ctx, found, 1), display(ctx, found, 0)
            message = (f"`{clip_name}` comes after `{optimizer_name}`, which already produced the "
                       f"update: it clips that update (scaled by the learning rate), not the "
                       f"gradients, so gradient spikes go through `{optimizer_name}` unclipped")
            advice = f"Clip first: `{optax}.chain({clip_name}(...), {optimizer_name}(...))`"
            yield Finding(node, message, self._fix(ctx, found), fix_title=advice,
                          roles={"call": found.site.node})

    def _fix(self, ctx: RuleContext, found: MisorderedChain) -> FixPlan | None:
        source = same_top(found, 1)
        if source is None:
            return None
        # Before the first part that shapes the update, so the clip meets the raw gradients.
        targets = set()
        orders = application_orders(found.chain, ctx.versions.get("optax").version) or []
        for order in orders:
            if not all(step is not None and step.table.clips for step in order
                       if step is None or step.top == source):
                return None  # the moved part holds more than clipping
            first = next((index for index, step in enumerate(order) if _shapes_update(step)),
                         None)
            if first is None or order[first] is None:
                return None
            step = order[first]
            assert step is not None
            targets.add(step.top)
        if len(targets) != 1:
            return None
        replacements = moved_argument(ctx, found, source, targets.pop())
        if replacements is None:
            return None
        return FixPlan("safe", "Clip the gradients before the optimizer", replacements)
