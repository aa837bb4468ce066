"""Rng streams a Flax lifted transformation does not split: `nn.scan(Block, split_rngs={"params":
True, "dropout": False}, ...)` hands every step (`nn.vmap`: every row) the same `dropout` key, so
a `Block` drawing from that stream (`nn.Dropout`, `self.make_rng("dropout")`) draws the same
mask in every step (flax 0.12.8, measured: `split_rngs={"dropout": False}` gave three scan
steps, and three vmapped rows, one mask; `True` gave three). A stream left out of `split_rngs`
is not passed at all (Flax raises), so only a `False` is reported."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.key_consumers import LIFTED_TRANSFORMS, STREAM_DRAWING_LAYERS
from optlint.analysis.key_library_calls import draws_nothing

if TYPE_CHECKING:
    from optlint.context import RuleContext


@dataclass(frozen=True)
class UnsplitStream:
    transform: cst.Call  # `nn.scan(Block, ...)`
    entry: cst.DictElement  # `"dropout": False`
    stream: str
    module: str  # the class lifted
    draw: cst.Call  # where the class draws from the stream


def unsplit_streams(ctx: RuleContext) -> Iterator[UnsplitStream]:
    for site in ctx.calls():
        call = site.node
        qualified = ctx.qualify(call.func)
        if qualified not in LIFTED_TRANSFORMS:
            continue
        position, keyword = LIFTED_TRANSFORMS[qualified]
        splits = argument(call, position, keyword)
        target = argument(call, 0, "target")
        if (splits is None or target is None or not isinstance(splits.value, cst.Dict)
                or not isinstance(target.value, cst.Name)):
            continue
        info = ctx.index.classes.get(target.value.value)
        if info is None:
            continue
        for element in splits.value.elements:
            if not (isinstance(element, cst.DictElement)
                    and isinstance(element.key, cst.SimpleString)
                    and isinstance(element.value, cst.Name) and element.value.value == "False"):
                continue
            stream = str(element.key.evaluated_value)
            draw = _draw_from(ctx, info.node, stream)
            if draw is not None:
                yield UnsplitStream(call, element, stream, info.name, draw)


def _draw_from(ctx: RuleContext, node: cst.ClassDef, stream: str) -> cst.Call | None:
    """A call in the class that draws from the named stream: `self.make_rng("dropout")`, or a
    layer drawing from it (`nn.Dropout(0.1)`, whose `rng_collection` is "dropout")."""
    found: list[cst.Call] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            if found:
                return
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value == "make_rng":
                name = argument(call, 0, "name")
                if (name is not None and isinstance(name.value, cst.SimpleString)
                        and name.value.evaluated_value == stream):
                    found.append(call)
                return
            layer = STREAM_DRAWING_LAYERS.get(ctx.qualify(func) or "")
            if layer is not None and not draws_nothing(call):  # `deterministic=True`
                keyword, default = layer
                given = argument(call, None, keyword)
                drawn = (default if given is None else given.value.evaluated_value
                         if isinstance(given.value, cst.SimpleString) else None)
                if drawn == stream:
                    found.append(call)

    node.visit(_Calls())
    return found[0] if found else None
