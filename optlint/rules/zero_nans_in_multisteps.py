"""OPT004 zero-nans-in-multisteps: `optax.zero_nans()` inside the optimizer `optax.MultiSteps` wraps.

MultiSteps accumulates raw micro-batch gradients before the inner optimizer (and its zero_nans)
sees them. From optax 0.2.0 on, one NaN gradient stays in the accumulator for good (`0 * nan` in the
reset) and zero_nans then zeroes that coordinate on every later step: the parameter silently
freezes. On 0.1.8-0.1.9 the first update raises. Zeroing NaNs before MultiSteps works everywhere.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis.index import CallSite
from optlint.analysis.binding import argument
from optlint.analysis.library_names import OPTAX_CHAIN, OPTAX_MULTISTEPS, OPTAX_ZERO_NANS
from optlint.analysis.values import LibraryRef, OneOf, TransformValue
from optlint.context import RuleContext
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck
from optlint.fixes import code_in_place, rearranged

# Using any of these means the code relies on MultiSteps itself, not just a transformation.
MULTISTEPS_OWN = {"has_updated", "gradient_transformation", "inner_opt_state", "mini_step",
                  "gradient_step", "acc_grads", "skip_state", "MultiStepsState"}


def version_phrase(ctx: RuleContext) -> str | None:
    """What happens on the user's optax, or None where zero_nans inside MultiSteps is fine."""
    describe = ctx.versions.describe("optax")
    if ctx.versions.in_range("optax", "<0.1.8") is True:
        return None
    if ctx.versions.in_range("optax", "<0.2.0") is True:
        return (f"on optax 0.1.8-0.1.9 the first update raises TypeError (cond branches must have "
                f"equal output types); {describe}")
    silent = ("one NaN micro-batch gradient stays in MultiSteps' accumulator for good and that "
              "parameter silently stops training")
    if ctx.versions.in_range("optax", ">=0.2.0") is True:
        return f"{silent} on optax >= 0.2.0; {describe}"
    return f"{silent} on optax >= 0.2.0, and on 0.1.8-0.1.9 the first update raises; {describe}"


class ZeroNansInMultiSteps(Rule):
    code = "OPT004"
    runtime_check = RuntimeCheck("transform", probe="nan_micro_batch:nan_gradient_recovers")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        harm = version_phrase(ctx)
        if harm is None:
            return
        for site, callee in ctx.callees():
            if callee != LibraryRef(OPTAX_MULTISTEPS):
                continue
            inner = argument(site.node, 0, "opt")
            if inner is None:
                continue
            value = ctx.value(inner.value, site)
            # A helper's parameter its callers fill with different optimizers
            # (`with_accumulation(chain(zero_nans(), adam), k)` here, `adam` there): the call
            # that passes zero_nans runs it inside MultiSteps.
            options = (value.options if isinstance(value, OneOf) and value.by_caller
                       else (value,))
            zero_nans = [part.call for option in options if isinstance(option, TransformValue)
                         for part in option.walk() if part.name == OPTAX_ZERO_NANS]
            if zero_nans:
                yield self._finding(ctx, site, inner.value, harm, zero_nans)

    def _finding(self, ctx: RuleContext, site: CallSite, inner: cst.BaseExpression, harm: str,
                 zero_nans: list[cst.Call | None]) -> Finding:
        optax = ctx.import_alias("optax", "optax")
        shape = (f"{optax}.chain({optax}.zero_nans(), {optax}.MultiSteps(..., every_k_schedule=k)"
                 f".gradient_transformation())")
        message = (f"`zero_nans()` runs inside `MultiSteps`, after the gradients are accumulated: "
                   f"{harm}")
        flagged = _wrapping_call(ctx, site.node) or site.node
        fix = self._fix(ctx, site.node, flagged, inner, optax, zero_nans)
        return Finding(flagged, message, fix, roles={"call": site.node},
                       fix_title=f"Zero NaNs before accumulating: `{shape}`")

    def _fix(self, ctx: RuleContext, multisteps: cst.Call, flagged: cst.Call,
             inner: cst.BaseExpression, optax: str,
             zero_nans: list[cst.Call | None]) -> FixPlan | None:
        if _uses_multisteps_itself(ctx):
            return None
        remover = _ZeroNansRemover(ctx)
        stripped = inner.visit(remover)
        if set(map(id, remover.removed)) != set(map(id, zero_nans)) or not isinstance(
                stripped, cst.BaseExpression):
            return None  # a zero_nans comes from outside this expression: we would edit other code
        rebuilt = multisteps.deep_replace(inner, stripped)
        assert isinstance(rebuilt, cst.Call)
        code = (f"{optax}.chain({optax}.zero_nans(), {code_in_place(ctx, multisteps, rebuilt)}"
                f".gradient_transformation())")
        return FixPlan("unsafe", "Apply zero_nans before MultiSteps", [(flagged, code)],
                       [("optax", optax)])


def _wrapping_call(ctx: RuleContext, multisteps: cst.Call) -> cst.Call | None:
    """`MultiSteps(...).gradient_transformation()`, the call around this MultiSteps, if any."""
    for site in ctx.calls():
        func = site.node.func
        if (isinstance(func, cst.Attribute) and func.value is multisteps
                and func.attr.value == "gradient_transformation"):
            return site.node
    return None


class _OwnUseFinder(cst.CSTVisitor):
    """Finds uses of MultiSteps' own methods and state, other than `MultiSteps(...).gradient_...`."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.found = False

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if node.attr.value not in MULTISTEPS_OWN:
            return
        on_fresh_call = (node.attr.value == "gradient_transformation"
                         and isinstance(node.value, cst.Call)
                         and self.ctx.qualify(node.value.func) == OPTAX_MULTISTEPS)
        self.found = self.found or not on_fresh_call

    def visit_Name(self, node: cst.Name) -> None:
        self.found = self.found or node.value == "MultiStepsState"


def _uses_multisteps_itself(ctx: RuleContext) -> bool:
    """Whether the file touches MultiSteps' own methods or state fields (then the fix could break it)."""
    finder = _OwnUseFinder(ctx)
    ctx.module.visit(finder)
    return finder.found


class _ZeroNansRemover(cst.CSTTransformer):
    """Drops `optax.zero_nans()` arguments from the `optax.chain(...)` calls it visits."""

    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.removed: list[cst.Call | None] = []

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if self.ctx.qualify(original_node.func) != OPTAX_CHAIN:
            return updated_node
        kept = [number for number, arg in enumerate(updated_node.args)
                if not self._is_zero_nans(arg)]
        if not kept or len(kept) == len(updated_node.args):
            return updated_node  # `chain(zero_nans())` alone: nothing sensible to keep
        without = rearranged(updated_node, kept)  # the comments stay, the others' with them
        if without is None:
            return updated_node  # nothing removed: the fix is not offered
        self.removed.extend(arg.value for arg in original_node.args if self._is_zero_nans(arg)
                            and isinstance(arg.value, cst.Call))
        return without

    def _is_zero_nans(self, arg: cst.Arg) -> bool:
        return (arg.keyword is None and not arg.star and isinstance(arg.value, cst.Call)
                and self.ctx.qualify(arg.value.func) == OPTAX_ZERO_NANS)
