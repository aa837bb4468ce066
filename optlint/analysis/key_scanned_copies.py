"""A `jax.lax.scan` (or `lax.map`) over items that are copies of one key: `keys =
jnp.array([rng_key] * n)`, then `scan(step, init, xs=(weights, keys))`, whose `step` draws from
its item's key. Every step is handed the same key and draws the same numbers (the blackjax fork
c456efe's MCLMC tuning, under '# TODO: change below to use jax.random.split': every tuning
step drew the same momentum). The copies are what `jax.vmap` over a replicated key is given
too (`key_batching.replicated_key`: `jnp.stack([key] * n)`, `jnp.repeat(key[None], n, 0)`,
`jnp.tile`, `jnp.broadcast_to`); here the loop hands them out one per step.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_batching import replicated_key
from optlint.analysis.key_carried_in import init_part
from optlint.analysis.key_model_loops import COPIED_ITEMS, LOOP_ITEMS, handed_to_body
from optlint.analysis.key_record import KeyRecorder
from optlint.analysis.prng_keys import Consumption

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import KeyCallsView


def scanned_copies(calls: KeyCallsView, call: cst.Call, body: cst.FunctionDef,
                   flow: KeyRecorder, qualified: str) -> list[Consumption]:
    """The key `call`, a loop of `qualified` running `body` (summarised by `flow`), hands every
    step as copies among its items, where the body draws from its item: consumed by the loop,
    and again by every step."""
    handed = handed_to_body(call, body, LOOP_ITEMS.get(qualified))
    if handed is None:
        return []
    items, item = handed
    uses = []
    for part, inner in _item_uses(calls, body, flow, item):
        found = init_part(items.value, part)
        copied = replicated_key(calls, found[0], call) if found is not None else None
        if copied is None:
            continue
        uses.append(Consumption(call, copied, calls.callee(call), library=False,
                                unseen=inner.unseen, proof=inner.proof))
        uses.append(Consumption(call, copied, calls.callee(inner.call), library=False,
                                repeated=True, unseen=inner.unseen, proof=inner.proof,
                                drawn_at=inner.call if calls.ctx.site_of(inner.call) else None,
                                over=f"{qualified} {COPIED_ITEMS}"))
    return uses


def _item_uses(calls: KeyCallsView, body: cst.FunctionDef, flow: KeyRecorder, item: str
               ) -> Iterator[tuple[str, Consumption]]:
    """The draws of `body` from its parameter `item`, each with the part of the item drawn
    from (`""`: all of it, `[1]`: its second element): drawn from as given, or from a name
    the body binds once by unpacking it (`outer_weight, rng_key = weight_and_key`)."""
    for name, inner in flow.param_uses.items():
        base, _, part = name.partition(".")
        if base == item and _draws(inner) and "\x00" not in part:
            yield part, inner
    info = calls.ctx.index.functions.get(body)
    if info is None:
        return
    for inner in flow.every:
        if not (isinstance(inner.key, cst.Name) and _draws(inner)):
            continue
        bindings = info.scope.bindings.get(inner.key.value, [])
        if (len(bindings) == 1 and bindings[0].kind == "assign" and bindings[0].path
                and isinstance(bindings[0].value, cst.Name) and bindings[0].value.value == item):
            yield "".join(f"[{place}]" for place in bindings[0].path), inner


def _draws(use: Consumption) -> bool:
    return not use.repeated and use.kind in ("draw", "split")
