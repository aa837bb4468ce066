"""OPT014 decay-after-scaling: `add_decayed_weights` chained after a transformation that already
scaled the update by -learning_rate (`chain(adam(lr), add_decayed_weights(wd))`).

Optax's updates are added to the params. After the learning-rate scaling the chain holds the
(negative) descent step; adding `weight_decay * params` to it moves every weight away from zero:
each step multiplies the weights by (1 + weight_decay). Measured on optax 0.2.8 with zero
gradients and weight_decay=0.1: 1.0 -> 2.59 in 10 steps, where `adamw(lr, weight_decay=0.1)` gives
0.990. Decay belongs before the scaling (`chain(scale_by_adam(), add_decayed_weights(wd),
scale_by_learning_rate(lr))`, which is adamw) and that order is not reported.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.optax_chain_order import Step, application_orders
from optlint.analysis.optax_model import holds
from optlint.analysis.optax_table import behaviour
from optlint.context import RuleContext
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck
from optlint.rule_helpers.chain_order import (
    MisorderedChain,
    display,
    reported_chains,
    moved_argument,
    same_top,
)


def _scaled(step: Step) -> bool:
    return step.table.final_update and not step.masked


def _decays(step: Step) -> bool:
    return (step.table.adds_weight_decay and not step.table.final_update
            and _rate(step) is not False)


def _harmless_after(step: Step | None) -> bool:
    """What may follow the decay without changing its sign or scale: clipping only."""
    return step is not None and step.table.clips


def _rate(step: Step) -> float | bool:
    """The decay rate when written as a number; True when given otherwise; False when it is
    off (not given: the default is 0; zero or negative: no growth)."""
    call, where = step.part.call, step.table.weight_decay_arg
    if call is None or where is None:
        return False
    if any(arg.star for arg in call.args):
        return False
    arg = argument(call, *where)
    if arg is None:
        return False
    value = arg.value
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        return False
    if isinstance(value, cst.Name) and value.value == "None":
        return False
    if isinstance(value, (cst.Integer, cst.Float)):
        rate = float(value.value.replace("_", ""))
        return rate if rate > 0 else False
    return True


def growth(rate: float | bool) -> str:
    """How fast the weights grow, in numbers when the rate is written as one."""
    if isinstance(rate, bool):
        return "each step multiplies the weights by (1 + weight_decay)"
    doubling = math.log(2) / math.log1p(rate)
    return (f"each step multiplies the weights by {1 + rate:g}: with zero gradients they double "
            f"every {doubling:,.0f} steps")


class DecayAfterScaling(Rule):
    code = "OPT014"
    runtime_check = RuntimeCheck("transform", probe="chain_order:decay_shrinks_weights")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        for found, node in reported_chains(ctx, 1, _scaled, _decays, _harmless_after):
            decay, scaled = display(ctx, found, 1), display(ctx, found, 0)
            optax = ctx.import_alias("optax", "optax")
            message = (f"`{decay}` comes after `{scaled}`, which already scaled the update by "
                       f"-learning_rate: adding weight_decay * params then grows the weights "
                       f"instead of decaying them ({growth(_rate(found.pairs[0][1]))}; measured "
                       f"with weight_decay=0.1: 1.0 -> 2.59 in 10 steps, adamw: 0.990)")
            advice = (f"Decay before the learning rate (`{optax}.adamw(...)`, or `{optax}.chain("
                      f"{optax}.scale_by_adam(), {decay}(...), "
                      f"{optax}.scale_by_learning_rate(lr))`)")
            yield Finding(node, message, self._fix(ctx, found), fix_title=advice,
                          roles={"call": found.site.node})

    def _fix(self, ctx: RuleContext, found: MisorderedChain) -> FixPlan | None:
        return self._decoupled(ctx, found) or self._moved(ctx, found)

    def _decoupled(self, ctx: RuleContext, found: MisorderedChain) -> FixPlan | None:
        """`chain(adam(lr), add_decayed_weights(wd, mask))` -> `chain(adamw(lr, weight_decay=wd,
        mask=mask))`, where the table names the optimizer's decoupled-decay twin, both calls are
        the chain's own arguments and the chain call fits on one line."""
        scaled, decay = found.common(0), found.common(1)
        if scaled is None or decay is None or decay.masked or scaled.table.decoupled_decay is None:
            return None
        version = ctx.versions.get("optax").version
        twin = behaviour(scaled.table.decoupled_decay, version)
        if twin is None or holds(twin.exists, version) is False:
            return None
        call, optimizer, decayer = found.site.node, scaled.part.call, decay.part.call
        values = [arg.value for arg in call.args]
        if (optimizer is None or decayer is None or "\n" in ctx.code(call)
                or any(arg.star or arg.keyword is not None for arg in call.args)
                or not any(value is optimizer for value in values)
                or not any(value is decayer for value in values)
                or any(arg.star or arg.keyword is not None and arg.keyword.value in (
                    "weight_decay", "mask") for arg in optimizer.args)
                or any(arg.star for arg in decayer.args)):
            return None
        rate, mask = argument(decayer, 0, "weight_decay"), argument(decayer, 1, "mask")
        if rate is None or len(decayer.args) != 1 + (mask is not None):
            return None
        optax = ctx.import_alias("optax", "optax")
        own = ctx.code(optimizer)[len(ctx.code(optimizer.func)):].strip()[1:-1].strip()
        added = [f"weight_decay={ctx.code(rate.value)}"]
        if mask is not None:
            added.append(f"mask={ctx.code(mask.value)}")
        twin_call = f"{optax}{twin.name[len('optax'):]}({', '.join([own.rstrip(','), *added])})"
        parts = [twin_call if value is optimizer else ctx.code(value)
                 for value in values if value is not decayer]
        code = f"{ctx.code(call.func)}({', '.join(parts)})"
        return FixPlan("unsafe", f"Use {twin.name}, which decays before the learning rate",
                       [(call, code)], [("optax", optax)])

    def _moved(self, ctx: RuleContext, found: MisorderedChain) -> FixPlan | None:
        """Move the decay before the scaling part, where that part is not scale invariant (sgd,
        scale_by_learning_rate): there the decay is scaled by -learning_rate as intended. Before
        adam the decay would be normalised away, so that case gets no fix."""
        source = same_top(found, 1)
        target = same_top(found, 0)
        if source is None or target is None:
            return None
        for order in application_orders(found.chain, ctx.versions.get("optax").version) or []:
            for step in order:
                if step is None:
                    return None
                if step.top == source and not _decays(step):
                    return None  # the moved part holds more than the decay
                if step.top == target and (step.table.scale_invariant or step.masked):
                    return None
        replacements = moved_argument(ctx, found, source, target)
        if replacements is None:
            return None
        return FixPlan("unsafe", "Decay the weights before the learning-rate scaling", replacements)
