"""OPT017 plateau-before-scale-invariant: `optax.contrib.reduce_on_plateau` chained before a
scale-invariant transformation (`chain(reduce_on_plateau(), adam(lr))`).

reduce_on_plateau multiplies the updates that reach it by a scale it lowers when the loss stops
improving. Before adam, lion, sign methods and the like, the scaled gradients are normalised
again and the reduction is undone: measured on optax 0.2.8, lion's and sign_sgd's step never
changes; adam's dips and is back to full size (0.0198 of 0.02) 4,000 steps after a 10x reduction,
as its second-moment average (b2=0.999) forgets the old gradients; rmsprop's within 100 steps.
After the optimizer it scales the step, which is what a learning-rate reduction means (optax #877).
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


def _plateau(step: Step) -> bool:
    return step.table.plateau_scale and not step.masked


def _invariant(step: Step) -> bool:
    return step.table.scale_invariant and not step.masked


class PlateauBeforeScaleInvariant(Rule):
    code = "OPT017"
    runtime_check = RuntimeCheck("transform", probe="chain_order:plateau_reduces_step")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for found, node in reported_chains(ctx, 0, _plateau, _invariant):
            plateau, invariant = display(ctx, found, 0), display(ctx, found, 1)
            optax = ctx.import_alias("optax", "optax")
            message = (f"`{plateau}` comes before `{invariant}`, which is scale invariant: it "
                       f"normalises the reduced updates again, so each reduction is undone (at "
                       f"once by sign-based optimizers, within about 1/(1 - b2) steps by adam-like "
                       f"ones; measured: 10x reduced before adam, the step is back to full size "
                       f"4,000 steps later, after adam it stays 10x smaller)")
            advice = (f"Put it after the optimizer: "
                      f"`{optax}.chain({invariant}(...), {plateau}(...))`")
            yield Finding(node, message, self._fix(ctx, found), fix_title=advice,
                          roles={"call": found.site.node})

    def _fix(self, ctx: RuleContext, found: MisorderedChain) -> FixPlan | None:
        source = same_top(found, 0)
        if source is None:
            return None
        for order in application_orders(found.chain, ctx.versions.get("optax").version) or []:
            if any(step is None or (step.top == source and not _plateau(step))
                   for step in order):
                return None
        replacements = moved_argument(ctx, found, source, len(found.chain.parts))
        if replacements is None:
            return None
        return FixPlan("unsafe", "Reduce the step after the optimizer", replacements)
