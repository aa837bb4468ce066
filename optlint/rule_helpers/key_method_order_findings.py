"""OPT020 findings for a method that runs only after another, both drawing from the key the
object holds (`key_method_order.py`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from optlint.analysis.key_method_order import ordered_draws
from optlint.rules.base import Finding

if TYPE_CHECKING:
    from optlint.analysis.key_calls import FileKeyCalls
    from optlint.analysis.key_method_order import Walk
    from optlint.context import RuleContext


def ordered_draw_findings(ctx: RuleContext, analysis: FileKeyCalls, walk: Walk,
                          reported: set[int]) -> Iterator[Finding]:
    for found in ordered_draws(analysis, walk):
        second = found.second
        if id(second.call) in reported:
            continue
        reported.add(id(second.call))
        key = f"self.{found.key}"
        message = (f"`{key}` is consumed by `{second.how}` in `{found.second_method}`, which "
                   f"reads `{ctx.code(found.read)}`, set only by `{found.first_method}`, "
                   f"which consumes `{key}` whenever it sets it: `{found.second_method}` runs "
                   f"after `{found.first_method}` on one object, and only construction sets "
                   f"`{key}`, so both draw the same random numbers")
        yield Finding(second.call, message, roles={
            "call": second.call, "key": second.key, "first_call": found.first.call,
            "first_key": found.first.key, "order_read": found.read},
            fix_title=(f"Split `{key}` and keep the new key (`{key}, subkey = "
                       f"jax.random.split({key})`), drawing from `subkey` in each method"))
