"""Keys bound into a kept partial of a model's apply: `functools.partial(model.apply,
method=..., rngs={"dropout": key})` handed to a constructor (a `TrainState` field) or kept in
an attribute is a function that applies the model with that one key on every call, so every
training step (and every call within one) draws the same dropout mask. A partial called where
it is made, or bound with no key, is left alone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.key_model_streams import KEYED_APPLY_METHODS
from optlint.analysis.library_names import FUNCTOOLS_PARTIAL
from optlint.records import record

if TYPE_CHECKING:
    from optlint.context import RuleContext


@record
class BoundPartial:
    partial: cst.Call  # `functools.partial(model.apply, rngs={"dropout": key})`
    key: cst.BaseExpression  # the key bound
    kept_in: str  # what keeps it, for the message: `representation_fn=`, `self.apply_fn`


def bound_partials(ctx: RuleContext) -> Iterator[BoundPartial]:
    parents = None
    for site in ctx.calls():
        call = site.node
        if not call.args or ctx.qualify(call.func) != FUNCTOOLS_PARTIAL:
            continue
        applied = call.args[0].value
        if not (isinstance(applied, cst.Attribute)
                and applied.attr.value in KEYED_APPLY_METHODS):
            continue
        rngs = argument(call, None, KEYED_APPLY_METHODS[applied.attr.value])
        if rngs is None or not isinstance(rngs.value, cst.Dict) or not rngs.value.elements:
            continue
        element = rngs.value.elements[0]
        if not isinstance(element, cst.DictElement):
            continue
        if parents is None:
            parents = ctx.index.parents()
        kept = _kept_in(ctx, call, parents)
        if kept:
            yield BoundPartial(call, element.value, kept)


def _kept_in(ctx: RuleContext, call: cst.Call, parents: dict[int, cst.CSTNode]) -> str:
    """`representation_fn=` where the partial is a keyword argument of another call (a field
    of what it builds), `self.apply_fn` where it is assigned to an attribute; "" otherwise."""
    parent = parents.get(id(call))
    if isinstance(parent, cst.Arg) and parent.keyword is not None:
        return f"{parent.keyword.value}="
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1:
        target = parent.targets[0].target
        if isinstance(target, cst.Attribute):
            return ctx.code(target)
    return ""
