"""What a `jax.lax` loop's first step draws from: the keys its initial carry holds.

`jax.lax.scan(step, (params, key), xs)` where `step` draws from the key of its carry (or splits
it) consumes the caller's `key` at its first step, as a call of `step` would: a caller drawing
from `key` again, or handing it back as if unused, reuses it. The body's summary says which
parts of its carry parameter it consumes (the parameter itself, `carry.key`, `carry[1]`,
`carry["key"]`), and the initial carry says what the caller holds there: a tuple or dict built
in place, or a name (followed as `init.key`, `init.[1]`, linked by `key_aliases.py` to the
names it was built from)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_model_loops import LOOP_INITS, handed_to_body
from optlint.analysis.key_fields import built_with
from optlint.analysis.key_record import KeyRecorder
from optlint.analysis.prng_keys import ITEM, Consumption, key_name

if TYPE_CHECKING:
    from optlint.context import RuleContext


def carried_in(call: cst.Call, body: cst.FunctionDef, flow: KeyRecorder, qualified: str,
               how: str, ctx: RuleContext | None = None) -> list[Consumption]:
    """The consumptions of the initial carry's keys by the loop `call` (its body `body`,
    summarised by `flow`; `ctx`, the file's, to follow a field to the key an object was
    built with)."""
    handed = handed_to_body(call, body, LOOP_INITS.get(qualified))
    if handed is None:
        return []
    init, carried = handed
    uses = []
    for name, inner in [*flow.param_uses.items(), *flow.attribute_uses.items()]:
        base, _, part = name.partition(".")
        if (base != carried or inner.repeated or inner.unseen
                or inner.kind not in ("draw", "split") or "\x00" in part):
            continue
        found = init_part(init.value, part)
        if found is not None:
            key, followed = found
            holder, _, field = followed.rpartition(".")
            held = (built_with(ctx, call, holder, field) if ctx is not None and holder
                    and "." not in holder else None)
            if held is not None:
                # `state = state.replace(rng_key=key)` before the loop: the key is `key`.
                key, followed = held, held.value
            uses.append(Consumption(call, key, f"{how} (its first step)", library=False,
                                    kind=inner.kind, followed=followed))
    return uses


def init_part(init: cst.BaseExpression, part: str) -> tuple[cst.BaseExpression, str] | None:
    """The expression of the initial carry at `part` (`""`: all of it, `key`: a field or an
    entry, `[1]` an item) and the name the flow follows it under ("": the expression's own)."""
    if not part:
        return (init, "") if key_name(init) is not None else None
    item = re.match(r"\[(\d+)\]", part)
    if isinstance(init, (cst.Tuple, cst.List)) and item is not None:
        index = int(item.group(1))
        if index >= len(init.elements) or isinstance(init.elements[index], cst.StarredElement):
            return None
        element = init.elements[index].value
        return init_part(element, part[item.end():].lstrip("."))
    if isinstance(init, cst.Dict) and item is None and "." not in part:
        for entry in init.elements:
            if (isinstance(entry, cst.DictElement) and isinstance(entry.key, cst.SimpleString)
                    and entry.key.evaluated_value == part):
                return init_part(entry.value, "")
        return None
    holder = key_name(init)
    if holder is None or ITEM in holder:
        return None
    return init, f"{holder}.{part}"
