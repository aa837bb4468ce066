"""OPT024 accumulation-misplaced: gradient accumulation with `optax.apply_every(k)` in a chain
with an optimizer that keeps state, instead of `optax.MultiSteps`.

`apply_every(k)` sums the updates it meets over k steps and emits zeros in between; the rest of
the chain still runs on every micro-batch. Before a stateful optimizer
(`chain(apply_every(k), adamw(...))`) the optimizer steps on the zeros: its momentum and weight
decay keep moving the weights between boundaries. After one (`chain(adamw(...),
apply_every(k))`) the moments and clipping see each micro-batch, and the boundary step is the sum
of k optimizer steps. Measured on optax 0.2.8 (see Transform.accumulates_over); `MultiSteps(opt,
k)` accumulates the gradients and runs `opt` once per k micro-batches.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.optax_chain_order import Step
from optlint.analysis.optax_model import keeps_param_state
from optlint.context import RuleContext
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck
from optlint.rule_helpers.chain_order import MisorderedChain, display, in_file, reported_chains


def _accumulates(step: Step) -> bool:
    """apply_every with k given and not 1 (its default, 1, accumulates nothing)."""
    where = step.table.accumulates_over
    if where is None or step.part.call is None or step.masked:
        return False
    if any(arg.star for arg in step.part.call.args):
        return False
    arg = argument(step.part.call, *where)
    if arg is None:
        return False
    value = arg.value
    return not (isinstance(value, cst.Integer) and int(value.value) <= 1)


def _steps_between(step: Step) -> bool:
    """A part that moves the weights on zero updates: state kept per parameter, or decay."""
    if step.table.accumulates_over is not None:
        return False
    return (keeps_param_state(step.part, None) is True
            or (step.table.adds_weight_decay and not step.table.adds_weight_decay_when))


def _sees_micro_batches(step: Step) -> bool:
    """A part whose result depends on seeing the accumulated gradient at once: moments, clips."""
    if step.table.accumulates_over is not None:
        return False
    return keeps_param_state(step.part, None) is True or step.table.clips


class AccumulationMisplaced(Rule):
    code = "OPT024"
    runtime_check = RuntimeCheck("transform", probe="chain_order:accumulation_holds_steps")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        reported: set[int] = set()
        for found, node in reported_chains(ctx, 0, _accumulates, _steps_between):
            reported.add(id(found.site.node))
            accumulator, optimizer = display(ctx, found, 0), display(ctx, found, 1)
            message = (f"`{accumulator}` comes before `{optimizer}`, which still steps on every "
                       f"micro-batch: it gets zeros between boundaries, and its momentum and "
                       f"weight decay keep moving the weights (measured with adamw and k=4: "
                       f"1.0 -> 0.970 before the first boundary, where MultiSteps holds 1.0)")
            yield self._finding(ctx, found, node, message, 1)
        for found, node in reported_chains(ctx, 1, _sees_micro_batches, _accumulates):
            if id(found.site.node) in reported:
                continue
            accumulator, optimizer = display(ctx, found, 1), display(ctx, found, 0)
            message = (f"`{accumulator}` comes after `{optimizer}`, which runs on each "
                       f"micro-batch: moments and clipping see single micro-batches and the "
                       f"boundary step is the sum of k steps (measured with adamw and k=4: "
                       f"3.9x the step of MultiSteps)")
            yield self._finding(ctx, found, node, message, 0)

    def _finding(self, ctx: RuleContext, found: MisorderedChain, node: cst.CSTNode,
                 message: str, optimizer: int) -> Finding:
        optax = ctx.import_alias("optax", "optax")
        advice = (f"Accumulate with `{optax}.MultiSteps(<the chain without apply_every>, "
                  f"every_k_schedule=k)`")
        # The verifier builds around the optimizer's own call, which the fix keeps (inside
        # MultiSteps); the chain call itself may be gone.
        step = found.common(optimizer)
        anchor = (step.part.call if step is not None and step.part.call is not None
                  and in_file(ctx, step.part.call) else found.site.node)
        return Finding(node, message, _multisteps_fix(ctx, found), fix_title=advice,
                       roles={"call": anchor})


def _multisteps_fix(ctx: RuleContext, found: MisorderedChain) -> FixPlan | None:
    """`chain(apply_every(k), a, b)` -> `MultiSteps(chain(a, b), every_k_schedule=k)`; one part
    left: `MultiSteps(a, every_k_schedule=k)`. Only for a one-line chain of positional parts."""
    call = found.site.node
    args = list(call.args)
    accumulator = next((step for pair in found.pairs for step in pair
                        if step.table.accumulates_over is not None), None)
    if (accumulator is None or accumulator.part.call is None
            or any(arg.star or arg.keyword is not None for arg in args)
            or "\n" in ctx.code(call) or len(args) != len(found.chain.parts)):
        return None
    accumulate_call = accumulator.part.call
    if not any(arg.value is accumulate_call for arg in args):
        return None
    where = accumulator.table.accumulates_over
    assert where is not None
    k = argument(accumulate_call, *where)
    if k is None or len(accumulate_call.args) != 1:
        return None
    rest = [ctx.code(arg.value) for arg in args if arg.value is not accumulate_call]
    inner = rest[0] if len(rest) == 1 else f"{ctx.code(call.func)}({', '.join(rest)})"
    optax = ctx.import_alias("optax", "optax")
    code = f"{optax}.MultiSteps({inner}, every_k_schedule={ctx.code(k.value)})"
    return FixPlan("unsafe", "Accumulate with optax.MultiSteps", [(call, code)],
                   [("optax", optax)])
