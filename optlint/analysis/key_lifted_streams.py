"""Rng streams a Flax lifted transformation does not split: `nn.scan(Block, split_rngs={"params":
True, "dropout": False}, ...)` hands every step (`nn.vmap`: every row) the same `dropout` key, so
a `Block` drawing from that stream (`nn.Dropout`, `self.make_rng("dropout")`) draws the same
mask in every step (flax 0.12.8, measured: `split_rngs={"dropout": False}` gave three scan
steps, and three vmapped rows, one mask; `True` gave three). A stream left out of `split_rngs`
is not passed at all (Flax raises), so only a `False` is reported. `apply(..., rngs=key)` given
a bare key passes it as the `params` stream, which every other stream falls back to (flax
0.12.8, measured: a Dropout drew the same mask from `rngs=key` as from `{"params": key}`), so a
lifted module applied so with `"params": False` draws its dropout unsplit too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import argument
from optlint.analysis.key_model_streams import (
    FALLBACK_STREAM,
    LIFTED_TRANSFORMS,
    ONE_KEY_MAKERS,
    STREAM_DRAWING_LAYERS,
)
from optlint.analysis.key_library_calls import draws_nothing
from optlint.records import record

if TYPE_CHECKING:
    from optlint.context import RuleContext


# A name read as one key (`key`, `rng`, `mc_key`, `rng_1`), not a mapping of streams (`rngs`).
_ONE_KEY_NAME = re.compile(r"(key|rng)(_?\d+)?$", re.IGNORECASE)


@record
class UnsplitStream:
    transform: cst.Call  # `nn.scan(Block, ...)`
    entry: cst.DictElement  # `"dropout": False`
    stream: str
    module: str  # the class lifted
    draw: cst.Call  # where the class draws from the stream
    # `model.apply(variables, x, rngs=key)`: a bare key, the only stream, which every draw
    # falls back to (then `stream` is the fallback stream, "params").
    applied: cst.Call | None = None


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
        unsplit = {str(element.key.evaluated_value): element
                   for element in splits.value.elements
                   if isinstance(element, cst.DictElement)
                   and isinstance(element.key, cst.SimpleString)
                   and isinstance(element.value, cst.Name) and element.value.value == "False"}
        for stream, element in unsplit.items():
            draw = _draw_from(ctx, info.node, stream)
            if draw is not None:
                yield UnsplitStream(call, element, stream, info.name, draw)
        fallback = unsplit.get(FALLBACK_STREAM)
        if fallback is None or any(_draw_from(ctx, info.node, s) for s in unsplit):
            continue
        applied = _applied_with_one_key(ctx)
        draw = next((found for stream in _streams_drawn(ctx, info.node)
                     if stream != FALLBACK_STREAM
                     for found in [_draw_from(ctx, info.node, stream)] if found), None)
        if applied is not None and draw is not None:
            yield UnsplitStream(call, fallback, FALLBACK_STREAM, info.name, draw, applied)


def _applied_with_one_key(ctx: RuleContext) -> cst.Call | None:
    """An `apply` of the file given `rngs=` a bare key (not a dict of streams, nor a name
    bound to one)."""
    for site in ctx.calls():
        func = site.node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "apply"):
            continue
        rngs = argument(site.node, None, "rngs")
        value: cst.BaseExpression | None = None if rngs is None else rngs.value
        if isinstance(value, cst.Name):
            binding = ctx.binding(value.value, site)
            made = binding.value if binding is not None and binding.kind == "assign" else None
            if isinstance(made, cst.Call) and (
                    ctx.qualify(made.func) in ONE_KEY_MAKERS and not binding.path  # type: ignore[union-attr]
                    or ctx.qualify(made.func) == "jax.random.split" and binding.path):  # type: ignore[union-attr]
                return site.node  # `key = PRNGKey(0)`, `key, sub = split(key)`
            if made is None and _ONE_KEY_NAME.search(value.value):
                return site.node  # a parameter named as one key (`key`, `mc_rng`)
            continue
        if isinstance(value, cst.Call) and ctx.qualify(value.func) in ONE_KEY_MAKERS:
            return site.node
    return None


def _streams_drawn(ctx: RuleContext, node: cst.ClassDef) -> list[str]:
    """The names of the streams the class's layers and `make_rng` calls draw from."""
    found: list[str] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            func = call.func
            if isinstance(func, cst.Attribute) and func.attr.value == "make_rng":
                name = argument(call, 0, "name")
                if name is not None and isinstance(name.value, cst.SimpleString):
                    found.append(str(name.value.evaluated_value))
            layer = STREAM_DRAWING_LAYERS.get(ctx.qualify(func) or "")
            if layer is not None and not draws_nothing(call):
                given = argument(call, None, layer[0])
                found.append(layer[1] if given is None else str(
                    getattr(given.value, "evaluated_value", "")))

    node.visit(_Calls())
    return found


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
