"""OPT009 masked-does-not-freeze: `optax.masked(opt, mask)` as the whole optimizer.

`masked` applies `opt` to the leaves where the mask is True and passes the other leaves' updates
through unchanged. As the whole optimizer those updates are the raw gradients, and
`apply_updates` adds them: the leaves meant to stay frozen move by +gradient every step (uphill,
with learning rate 1). Inside a chain whose other parts transform every leaf (the weight-decay mask
idiom, `chain(masked(add_decayed_weights(wd), m), adam(lr))`) it is fine, and so is a mask that
only leaves out leaves without gradients (integer leaves: a mask by dtype or `eqx.is_array`).
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis import apis
from optlint.analysis.binding import argument
from optlint.analysis.helper_entry import helper_entry
from optlint.analysis.index import CallSite
from optlint.analysis.library_names import (
    NNX_OPTIMIZERS as _NNX_OPTIMIZERS,
    OPTAX_MASKED,
    OPTAX_PREFIX,
    STRUCTURAL_MASK_BUILDERS as _STRUCTURAL,
)
from optlint.analysis.optax_model import gives_final_update, whole_update
from optlint.analysis.optax_table import behaviour
from optlint.analysis.values import (
    DictValue,
    FunctionValue,
    LibraryRef,
    ModuleValue,
    OneOf,
    PartialValue,
    TransformValue,
    Value,
)
from optlint.analysis.evaluator import Evaluator
from optlint.context import RuleContext
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck

# A mask that mentions these selects leaves by type: the leaves it leaves out (integers, keys,
# non-arrays) have no gradient, so nothing moves them.
_TYPE_WORDS = ("dtype", "is_array", "is_inexact", "isinstance", "issubdtype", "floating",
               "inexact", "is_float")
_MASK_REUSED = ("whether the masked-out leaves get gradients: the mask is also given to other "
                "code here (`eqx.partition(model, mask)` before taking gradients, or zeroing "
                "updates by hand, leaves nothing to pass through)")
_UNSEEN_MASK = ("what the mask leaves out: leaves without gradients (integer leaves, buffers read "
                "through stop_gradient) are not moved")


class MaskedDoesNotFreeze(Rule):
    code = "OPT009"
    runtime_check = RuntimeCheck("transform", probe="frozen_leaves:masked_out_leaves_stay")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        sites = {id(site.node): site for site in ctx.calls()}
        reported: set[int] = set()
        for site in ctx.calls_where(("init", "update", "create"), _NNX_OPTIMIZERS.__contains__):
            used = _whole_optimizer_use(ctx, site.node)
            if used is None:
                continue
            for masked, clipped in _whole_masked(ctx.value(used, site)):
                if id(masked) in reported or (masked.call is not None
                                              and id(masked.call) in reported):
                    continue
                # A helper wrapping the optimizer its caller gives (`freeze_except(adam, p)`
                # returns `masked(optimizer, mask)`): the hazard enters at the helper's call.
                entry = helper_entry(ctx, used, site)
                if entry is not None and (masked.call is None or not entry.passes_through(
                        _inner_expr(masked.call))):
                    entry = None
                helper_ctx = ctx
                if entry is not None and entry.inference is not ctx.inference:
                    helper_ctx = _context_of(ctx, entry.inference)  # it reads the mask there
                yield from self._report(ctx, entry.call if entry else used, masked, clipped,
                                        sites, reported, entry is not None, helper_ctx)

    def _report(self, ctx: RuleContext, used: cst.BaseExpression,
                masked: TransformValue, clipped: bool, sites: dict[int, CallSite],
                reported: set[int], through_helper: bool = False,
                helper_ctx: RuleContext | None = None) -> Iterator[Finding]:
        mask = _mask_expr(masked)
        local = masked.call is not None and id(masked.call) in sites
        helper_site = (helper_ctx.site_of(masked.call) if helper_ctx is not None
                       and helper_ctx is not ctx and masked.call is not None else None)
        if local and mask is not None and masked.call is not None:
            kind = _mask_kind(ctx, mask, sites[id(masked.call)])
        elif helper_site is not None and helper_ctx is not None and mask is not None:
            kind = _mask_kind(helper_ctx, mask, helper_site)  # built in the helper's file
        else:
            kind = _syntactic_kind(mask)
        if kind == "by type":
            return
        unproven = _UNSEEN_MASK if kind == "unknown" else None
        if unproven is None and local and _used_elsewhere(ctx, mask) or unproven is None and helper_site is not None and helper_ctx is not None and (
                _used_elsewhere(helper_ctx, mask)):
            unproven = _MASK_REUSED
        reported.add(id(masked))
        if masked.call is not None:
            reported.add(id(masked.call))
        node: cst.CSTNode = (masked.call if local and masked.call is not None
                             and not through_helper else used)
        if (not local or through_helper) and id(node) in reported:
            return
        reported.add(id(node))
        yield self._finding(ctx, masked, node, mask, kind, clipped, local, unproven,
                            through_helper)

    def _finding(self, ctx: RuleContext, masked: TransformValue, node: cst.CSTNode,
                 mask: cst.BaseExpression | None, kind: str, clipped: bool,
                 local: bool, unproven: str | None, through_helper: bool = False) -> Finding:
        optax = ctx.import_alias("optax", "optax")
        written = (ctx.code(node.func) if local and isinstance(node, cst.Call)
                   and not through_helper else f"{optax}.masked")
        gradient = "the gradient, only clipped," if clipped else "the raw gradient"
        if through_helper and isinstance(node, cst.Call):
            whole = (f"`{ctx.code(node.func)}(...)` returns `{written}(...)`, used as the whole "
                     f"optimizer")
        elif local:
            whole = f"`{written}(...)` is the whole optimizer"
        else:
            whole = f"`{ctx.code(node)}` is `{written}(...)` as the whole optimizer"
        message = (f"{whole}: the leaves its mask leaves out "
                   f"are not frozen, {gradient} is passed through and `apply_updates` adds it "
                   f"(a leaf with gradient g moves by +g every step, uphill)")
        advice = (f"Freeze them with `{optax}.chain({optax}.masked(opt, mask), "
                  f"{optax}.masked({optax}.set_to_zero(), <inverted mask>))`")
        fix = None
        target = masked.call if through_helper else node
        if local and mask is not None and kind != "unknown" and isinstance(target, cst.Call) and (
                ctx.qualify(target.func) == OPTAX_MASKED):
            fix = _fix(ctx, target, mask, kind, optax)
        roles: dict[str, cst.CSTNode] = {"call": masked.call} if local and masked.call is not None else {}
        return Finding(node, message, fix, unproven=unproven, fix_title=advice, roles=roles)


def _inner_expr(masked: cst.Call) -> cst.BaseExpression | None:
    arg = argument(masked, 0, "inner")
    return arg.value if arg is not None else None


def _context_of(ctx: RuleContext, inference: Evaluator) -> RuleContext:
    """A context for another file of the project, to read code there the way this rule reads
    its own file's."""
    module = inference.index.module_scope.node
    assert isinstance(module, cst.Module)
    return RuleContext(module, inference.index, inference, ctx.versions,
                       inference.path or ctx.filename)


def _whole_optimizer_use(ctx: RuleContext, call: cst.Call) -> cst.BaseExpression | None:
    """The optimizer `call` uses as the whole optimizer: `opt.init(...)`, `opt.update(...)`,
    Flax's `TrainState.create(..., tx=opt)` (any `.create` given `tx=`) and `nnx.Optimizer(model,
    tx)`."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value in ("init", "update"):
        return func.value
    if isinstance(func, cst.Attribute) and func.attr.value == "create":
        found = argument(call, None, "tx")
        return found.value if found is not None else None
    if ctx.qualify(func) in _NNX_OPTIMIZERS:
        found = argument(call, 1, "tx")
        return found.value if found is not None else None
    return None


def _whole_masked(optimizer: Value) -> list[tuple[TransformValue, bool]]:
    """The `masked` transformations that are the whole of `optimizer`, one per way of building
    it, with whether clipping comes first; empty unless every way is one."""
    options = optimizer.options if isinstance(optimizer, OneOf) else (optimizer,)
    found: list[tuple[TransformValue, bool]] = []
    for option in options:
        if not isinstance(option, TransformValue):
            return []
        whole = whole_update(option)
        if whole is None:
            return []
        table = behaviour(whole[0].name)
        if table is None or not table.passes_unmasked_through:
            return []
        # The inner part must make a whole descent step: `masked(scale_by_adam())` alone is
        # some other construction.
        if gives_final_update(whole[0]) is not True:
            return []
        found.append(whole)
    return found


def _mask_expr(masked: TransformValue) -> cst.BaseExpression | None:
    table = behaviour(masked.name)
    if masked.call is None or table is None or not table.mask_args:
        return None
    position, keyword = table.mask_args[0]
    arg = argument(masked.call, position, keyword)
    return arg.value if arg is not None else None


def _mask_kind(ctx: RuleContext, mask: cst.BaseExpression, site: CallSite) -> str:
    """"callable" / "tree" (a mask by name or position: what it leaves out are weights),
    "by type" (it leaves out leaves without gradients), or "unknown"."""
    value = ctx.value(mask, site)
    if isinstance(value, LibraryRef):
        return "by type" if _typed(value.name) else "unknown"
    if isinstance(value, (FunctionValue, PartialValue)):
        node = value.node if isinstance(value, FunctionValue) else value.call
        return "by type" if _typed(ctx.code(node)) else "callable"
    if isinstance(value, DictValue):
        return "tree" if not _typed(ctx.code(mask)) else "by type"
    if isinstance(value, ModuleValue) and value.derived_by in _STRUCTURAL:
        return "tree"
    return _built_kind(ctx, _bound_expression(ctx, mask, site), site)


def _bound_expression(ctx: RuleContext, mask: cst.BaseExpression,
                      site: CallSite) -> cst.BaseExpression:
    """What a mask variable was assigned (`mask = {...}` before `masked(opt, mask)`)."""
    if not isinstance(mask, cst.Name):
        return mask
    binding = ctx.binding(mask.value, site)
    if binding is None or binding.kind != "assign" or binding.path or binding.value is None:
        return mask
    return binding.value


def _built_kind(ctx: RuleContext, mask: cst.BaseExpression, site: CallSite) -> str:
    """The kind of a mask built here: a dict comprehension, or a call of a function of the
    checked code. Its text (and the called function's) says whether it selects by type;
    otherwise it selects by name or position."""
    if isinstance(mask, cst.DictComp):
        return "by type" if _typed(ctx.code(mask)) else "tree"
    if not isinstance(mask, cst.Call):
        return _syntactic_kind(mask)
    callee = ctx.value(mask.func, site)
    if isinstance(callee, FunctionValue):
        return "by type" if _typed(ctx.code(mask) + ctx.code(callee.node)) else "tree"
    if isinstance(callee, LibraryRef) and callee.name in apis.LEAFWISE_BUILDERS:
        return "by type" if _typed(ctx.code(mask)) else "tree"  # `hk.data_structures.map(f, p)`
    return "unknown"


def _used_elsewhere(ctx: RuleContext, mask: cst.BaseExpression | None) -> bool:
    """Whether the mask variable is also an argument of a call that is not Optax's."""
    if not isinstance(mask, cst.Name):
        return False
    # `spec = eqx.tree_at(..., spec, ...)` builds the mask: not a use.
    building = {id(binding.value) for scope in ctx.index.every_scope
                for binding in scope.bindings.get(mask.value, [])}
    for site in ctx.calls():
        name = ctx.qualify(site.node.func) or ""
        if name.startswith(OPTAX_PREFIX) or id(site.node) in building:
            continue
        if any(isinstance(arg.value, cst.Name) and arg.value.value == mask.value
               for arg in site.node.args):
            return True
    return False


def _syntactic_kind(mask: cst.BaseExpression | None) -> str:
    """The kind of a mask written in another file, from its text alone."""
    if isinstance(mask, (cst.Lambda, cst.Dict)):
        text = cst.Module([]).code_for_node(mask)
        if _typed(text):
            return "by type"
        return "callable" if isinstance(mask, cst.Lambda) else "tree"
    return "unknown"


def _typed(text: str) -> bool:
    return any(word in text for word in _TYPE_WORDS)


def _fix(ctx: RuleContext, masked: cst.Call, mask: cst.BaseExpression, kind: str,
         optax: str) -> FixPlan | None:
    if not isinstance(mask, (cst.Name, cst.Attribute, cst.Lambda, cst.Dict)):
        return None  # a call would be evaluated twice
    jax = ctx.import_alias("jax", "jax")
    mask_code = ctx.code(mask)
    if kind == "callable":
        if isinstance(mask, cst.Lambda):
            mask_code = f"({mask_code})"
        inverted = (f"lambda params: {jax}.tree_util.tree_map(lambda leaf: not leaf, "
                    f"{mask_code}(params))")
    else:
        inverted = f"{jax}.tree_util.tree_map(lambda leaf: not leaf, {mask_code})"
    code = (f"{optax}.chain({ctx.code(masked)}, "
            f"{optax}.masked({optax}.set_to_zero(), {inverted}))")
    return FixPlan("unsafe", "Set the masked-out updates to zero",
                   [(masked, code)], [("optax", optax), ("jax", jax)])
