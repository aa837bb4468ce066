"""Which earlier consumption OPT020's message names for two keys made from one seed.

The flow follows a key made from a literal seed under the seed (`key = PRNGKey(0)` is one key with
every other key of seed 0), so the consumption it pairs with the second may be one of another key
of that seed (`init()` making its own `PRNGKey(0)`) while the very key object the second consumes
was consumed before it: that earlier call is the one JAX's key-reuse checker raises against, and
the one to name. Seen on evojax's SNN notebook: `run_sim(key, ...)` in two cells, `init()` between.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import libcst as cst
from libcst.metadata import CodeRange

from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.prng_keys import Consumption, Reuse
from optlint.context import RuleContext


def same_key_pair(ctx: RuleContext, reuse: Reuse, flow: KeyFlow) -> Reuse:
    """`reuse` with the last earlier consumption of the key object its second consumes as its
    first, where the pair is of two keys of one seed and such a consumption is sure to run before
    the second (one block, after the name was bound); `reuse` itself otherwise."""
    second, first = reuse.second, reuse.first
    # Two draws or two splits, in one pass: a draw and a split of two keys of one seed go to
    # `--preview` (correlated values), and a returned key and a loop's pair are worded apart,
    # so that the pair stays as the flow made it and no finding changes with its wording.
    if (not (reuse.seed or reuse.named_seed) or {first.kind, second.kind} not in (
            {"draw"}, {"split"}) or first.via is not None or reuse.in_loop
            or not isinstance(second.key, cst.Name)
            or second.closed is not None or second.repeated or reuse.origin is None
            or _named(first.key, second.key.value)):
        return reuse
    positions = ctx.positions()
    made = positions[reuse.origin].start
    at = positions[second.call].start
    block = _block(ctx, second.call)
    found: Consumption | None = None
    for use in flow.every:
        if use is second:
            break
        if (_named(use.key, second.key.value) and use.kind in ("draw", "split")
                and use.closed is None and not use.repeated and not use.unseen
                and (made.line, made.column) < _start(positions, use.call) < (at.line, at.column)
                and _block(ctx, use.call) is block):
            found = use
    return reuse if found is None else replace(reuse, first=found, seed="", named_seed="",
                                               first_statement=None, span=())


def _named(key: cst.BaseExpression, name: str) -> bool:
    return isinstance(key, cst.Name) and key.value == name


def _start(positions: Mapping[cst.CSTNode, CodeRange], node: cst.CSTNode) -> tuple[int, int]:
    start = positions[node].start
    return start.line, start.column


def _block(ctx: RuleContext, node: cst.CSTNode) -> cst.CSTNode | None:
    """The block (a module's or an indented one) whose statement holds `node`: two calls in
    one block run in order, with no branch between them."""
    parents = ctx.index.parents()
    while True:
        parent = parents.get(id(node))
        if parent is None or isinstance(parent, (cst.Module, cst.IndentedBlock)):
            return parent
        if isinstance(parent, cst.Lambda):
            return None  # runs when called, not in order
        node = parent
