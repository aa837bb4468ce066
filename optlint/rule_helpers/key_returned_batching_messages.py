"""The OPT020 finding for a batching transformation handed on with a key given no axis
(`key_returned_batchings.py`)."""

from __future__ import annotations

from optlint.analysis.key_returned_batchings import ReturnedBatching
from optlint.context import RuleContext
from optlint.rule_helpers.key_lines import at_line
from optlint.rules.base import Finding


def returned_batching_finding(ctx: RuleContext, found: ReturnedBatching) -> Finding:
    key = found.param.name.value
    spec = "in_specs=P()" if "shard_map" in found.batching else "in_axes=None"
    message = (f"`{key}` is given no axis by `{found.batching}`{at_line(ctx, found.transform)} "
               f"({spec}) and consumed by `{found.draw.how}` in every row: whatever key a "
               f"caller passes, every row (shard, device) draws the same random numbers")
    return Finding(found.draw.call, message,
                   roles={"key": found.param.name, "batching": found.transform,
                          "consumed": found.draw.call},
                   fix_title=(f"Give each row its own key: fold in the row "
                              f"(`jax.random.fold_in({key}, jax.lax.axis_index(axis))`), or "
                              f"map a batch of keys"))
