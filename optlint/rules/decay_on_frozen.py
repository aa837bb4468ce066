"""OPT013 decay-on-frozen: weight decay reaching leaves the code means to keep fixed.

Weight decay adds `weight_decay * param` to the update whatever the gradient is, so it moves
leaves whose gradient is zero. Two shapes freeze leaves and then decay them anyway:

* `chain(optax.freeze(mask), adamw(...))`: freeze zeroes the frozen leaves' gradients, then adamw
  adds their decay (a frozen leaf 1.0 -> 0.990 in one step at lr=0.1, wd=0.1). Freeze last.
* an Equinox module whose field is only ever read through `jax.lax.stop_gradient(self.field)`
  (the Equinox idiom for a buffer), trained with a decay that has no mask: the buffer's gradient
  is zero, the decay shrinks it by a factor (1 - lr * wd) every step (2.0 -> 1.56 in 50 steps at
  lr=0.1, wd=0.05).
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.index import CallSite, ClassInfo
from optlint.analysis.evaluator import Evaluator
from optlint.analysis.library_names import STOP_GRADIENT
from optlint.analysis.optax_model import (
    adds_decay,
    decay_mask_given,
    parts_seeing_every_leaf,
)
from optlint.analysis.optax_table import behaviour
from optlint.analysis.walk import walk
from optlint.analysis.values import ModuleValue, OneOf, TransformValue, Value
from optlint.context import RuleContext
from optlint.rules.base import Finding, FixPlan, Rule, RuntimeCheck
from optlint.fixes import code_in_place, rearranged

# Integer and boolean arrays are not decayed by a float optimizer in any useful sense.
_NOT_FLOAT = ("Int", "UInt", "Bool", "Key")


class DecayOnFrozen(Rule):
    code = "OPT013"
    # The anchor is the flagged `freeze(...)`, or the decaying optimizer where it is built.
    runtime_check = RuntimeCheck("transform", probe="frozen_leaves:frozen_leaves_stay")

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        local = {id(site.node) for site in ctx.calls()}
        reported: set[int] = set()
        for site in ctx.calls_where(("init",), _wraps_many):
            func = site.node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "init":
                yield from self._buffers(ctx, site.node, func, site, local, reported)
                continue
            chain = ctx.value(site.node, site) if _may_chain(ctx, site.node) else None
            if isinstance(chain, TransformValue):
                yield from self._freeze_first(ctx, site.node, chain, local, reported)

    # ---- freeze before decay ----------------------------------------------------------------
    def _freeze_first(self, ctx: RuleContext, call: cst.Call, chain: TransformValue,
                      local: set[int], reported: set[int]) -> Iterator[Finding]:
        parts = parts_seeing_every_leaf(chain)
        if parts is None:
            return
        freezes = [index for index, part in enumerate(parts) if _zeroes(part)]
        if not freezes:
            return
        first = freezes[0]
        freeze = parts[first]
        later = [part for part in parts[first + 1:] if adds_decay(part) is not False
                 and decay_mask_given(part) is False]
        if not later:
            return
        decay = later[0]
        # Parts collected in a list (`chain(*txs)`) are reported where the list is chained, as
        # for the other chain-order rules.
        splatted = any(arg.star == "*" for arg in call.args)
        at_freeze = freeze.call is not None and id(freeze.call) in local and not splatted
        node: cst.Call = freeze.call if at_freeze and freeze.call is not None else call
        if id(node) in reported:
            return
        reported.add(id(node))
        optax = ctx.import_alias("optax", "optax")
        written = ctx.code(node.func) if at_freeze else f"{optax}.freeze"
        numbers = _rate_phrase(decay) or ("a frozen leaf 1.0 -> 0.990 after one step at "
                                          "lr=0.1, weight_decay=0.1")
        message = (f"`{written}(...)` comes before `{decay.name}` in this chain: it zeroes "
                   f"the frozen leaves' gradients, then the weight decay still moves them "
                   f"({numbers})")
        unproven = None if adds_decay(decay) is True else "whether the decay rate is not 0"
        # Moved last, freeze would let the frozen gradients into a global-norm clipping after it.
        clipping = any(_clips(part) for part in parts[first + 1:])
        fix = _move_last(ctx, call, node) if at_freeze and not clipping else None
        # The harness builds the optimizer around the freeze (its mask says what is frozen).
        yield Finding(node, message, fix, unproven=unproven, roles={"call": node},
                      fix_title="Put `freeze` last in the chain (its True means frozen)")

    # ---- stop_gradient buffers --------------------------------------------------------------
    def _buffers(self, ctx: RuleContext, call: cst.Call, func: cst.Attribute, site: CallSite,
                 local: set[int], reported: set[int]) -> Iterator[Finding]:
        if len(call.args) != 1 or call.args[0].keyword is not None:
            return
        model = ctx.value(call.args[0].value, site)
        if not isinstance(model, ModuleValue) or model.cls is None:
            return
        if not (model.derived_by is None or model.filtered):
            return  # a custom filter may leave the buffer out
        info, owner = model.cls.info, ctx.inference.evaluator_for(model.cls.path)
        if not owner.is_equinox_module(info):
            return
        buffers = [name for name in stop_gradient_only_fields(info, owner)
                   if owner.field_holds_arrays(info, name) is True and _float_field(info, name)]
        if not buffers:
            return
        optimizer = ctx.value(func.value, site)
        decay = _unmasked_decay(optimizer)
        if decay is None:
            return
        at_decay = decay.call is not None and id(decay.call) in local
        node: cst.CSTNode = decay.call if at_decay and decay.call is not None else call.args[0].value
        if id(node) in reported:
            return
        reported.add(id(node))
        fields = ", ".join(f"`{info.name}.{name}`" for name in buffers)
        numbers = _rate_phrase(decay) or "2.0 -> 1.56 in 50 steps at lr=0.1, weight_decay=0.05"
        message = (f"`{decay.name}` decays every leaf of {info.name}, also {fields}, "
                   f"which {info.name} reads only through `jax.lax.stop_gradient` (a frozen "
                   f"buffer): its gradient is zero, but the decay shrinks it by a factor "
                   f"(1 - learning_rate * weight_decay) every step ({numbers})")
        unproven = None if adds_decay(decay) is True else "whether the decay rate is not 0"
        roles: dict[str, cst.CSTNode] = {"call": decay.call} if at_decay and decay.call is not None else {}
        yield Finding(node, message, None, unproven=unproven, roles=roles,
                      fix_title="Give the decay a `mask` that is False there")


def _rate_phrase(decay: TransformValue) -> str | None:
    """"at learning_rate=0.001, weight_decay=0.05 a frozen value keeps 95.1% of itself after
    1,000 steps", for a decoupled decay (update -lr * (... + wd * p)) whose two rates are number
    literals in the call."""
    table = behaviour(decay.name)
    if (table is None or decay.call is None or table.weight_decay_arg is None
            or table.learning_rate_arg is None):
        return None
    rates = [argument(decay.call, *where) for where in (table.learning_rate_arg,
                                                        table.weight_decay_arg)]
    numbers = [_number(arg.value) if arg is not None else None for arg in rates]
    lr, wd = numbers
    if lr is None or wd is None or not 0 < lr * wd < 1:
        return None
    kept = (1 - lr * wd) ** 1000
    return (f"at learning_rate={lr:g}, weight_decay={wd:g} a frozen value keeps {kept:.1%} of "
            f"itself after 1,000 steps")


def _number(expr: cst.BaseExpression) -> float | None:
    if isinstance(expr, (cst.Integer, cst.Float)):
        return float(expr.value.replace("_", ""))
    return None


def _may_chain(ctx: RuleContext, call: cst.Call) -> bool:
    name = ctx.qualify(call.func)
    return name is not None and _wraps_many(name)


def _wraps_many(name: str) -> bool:
    table = behaviour(name)
    return table is not None and table.wraps_many


def _clips(part: TransformValue) -> bool:
    table = behaviour(part.name)
    return table is not None and table.clips


def _zeroes(part: TransformValue) -> bool:
    table = behaviour(part.name)
    return table is not None and table.zeroes_masked


def _unmasked_decay(optimizer: Value) -> TransformValue | None:
    """The part of `optimizer` that decays every leaf it is given, with no mask and no freeze after
    it, for every way of building the optimizer; None otherwise."""
    options = optimizer.options if isinstance(optimizer, OneOf) else (optimizer,)
    found: list[TransformValue] = []
    for option in options:
        parts = parts_seeing_every_leaf(option)
        if parts is None:
            return None
        decaying = [index for index, part in enumerate(parts)
                    if adds_decay(part) is not False and decay_mask_given(part) is False]
        if not decaying:
            return None
        if any(_zeroes(part) for part in parts[decaying[0] + 1:]):
            return None  # a freeze after the decay may cover the buffer
        found.append(parts[decaying[0]])
    return found[0] if found else None


def _float_field(info: ClassInfo, name: str) -> bool:
    field = info.fields.get(name)
    annotation = field.annotation if field is not None else None
    if isinstance(annotation, cst.Subscript):
        annotation = annotation.value
    head = ""
    if isinstance(annotation, cst.Name):
        head = annotation.value
    elif isinstance(annotation, cst.Attribute):
        head = annotation.attr.value
    return head not in _NOT_FLOAT


def stop_gradient_only_fields(info: ClassInfo, owner: Evaluator) -> list[str]:
    """The fields of `info` that its methods read only as `jax.lax.stop_gradient(self.field)`
    (outside `__init__`, where they are set)."""
    finder = _FieldReads(owner, set(info.fields))
    for item in info.node.body.body:
        if isinstance(item, cst.FunctionDef) and item.name.value not in ("__init__",
                                                                          "__check_init__"):
            params = item.params.params
            if not params:
                continue
            finder.self_name = params[0].name.value
            walk(item, finder)
    return [name for name in info.fields
            if name in finder.stopped and name not in finder.other]


class _FieldReads:
    """The fields read in the methods walked (`walk`: read-only, without libcst's visit, which
    rebuilds every node)."""

    def __init__(self, owner: Evaluator, fields: set[str]) -> None:
        self.owner = owner
        self.fields = fields
        self.self_name = "self"
        self.stopped: set[str] = set()
        self.other: set[str] = set()
        self._inside: set[int] = set()

    def visit_Call(self, node: cst.Call) -> None:
        if self.owner.qualify(node.func) != STOP_GRADIENT or len(node.args) != 1:
            return
        target = node.args[0].value
        name = self._field(target)
        if name is not None:
            self.stopped.add(name)
            self._inside.add(id(target))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        name = self._field(node)
        if name is not None and id(node) not in self._inside:
            self.other.add(name)

    def _field(self, node: cst.BaseExpression) -> str | None:
        if (isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name)
                and node.value.value == self.self_name and node.attr.value in self.fields):
            return node.attr.value
        return None


def _move_last(ctx: RuleContext, chain: cst.Call, freeze: cst.Call) -> FixPlan | None:
    """`chain(freeze(m), a, b)` -> `chain(a, b, freeze(m))`, when freeze is written there."""
    args = list(chain.args)
    if any(arg.star or arg.keyword is not None for arg in args):
        return None
    if not any(arg.value is freeze for arg in args) or args[-1].value is freeze:
        return None
    order = [number for number, arg in enumerate(args) if arg.value is not freeze] + [
        number for number, arg in enumerate(args) if arg.value is freeze]
    moved = rearranged(chain, order)  # each comment with its part
    if moved is None:
        return None
    return FixPlan("unsafe", "Move `freeze` to the end of the chain", [(chain, code_in_place(ctx, chain, moved))])
