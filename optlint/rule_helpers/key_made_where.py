"""Where the key of a reported reuse was made, for OPT020's message: the line it was bound at (a
parameter's, or the line a key consumed under another name is held under this one from), and
whether a key made from a literal seed is made again in the loop that repeats its draw."""

from __future__ import annotations

import libcst as cst

from optlint.analysis.prng_keys import Reuse
from optlint.context import RuleContext
from optlint.rule_helpers.key_lines import line_of


def made_at(ctx: RuleContext, reuse: Reuse) -> str:
    """` (made at line 3)`: where the key the second consumes was bound, for the message."""
    if reuse.origin is None:
        return ""
    made = line_of(ctx, reuse.origin)
    positions = ctx.positions()
    if not reuse.in_loop and (
            positions[reuse.origin].start.line > positions[reuse.first.call].start.line):
        return f" (held under this name from {made})"  # consumed under another name first
    if isinstance(reuse.origin, cst.Param) or isinstance(
            ctx.index.parents().get(id(reuse.origin)), cst.Param):
        second = reuse.second  # the key itself, or a key read from it (`config.seed`)
        given = "the" if isinstance(second.key, cst.Name) and not (
            second.followed or second.given_as) else "from the"
        return f" ({given} parameter at {made})"
    return f" (made at {made})"


def made_in_loop(ctx: RuleContext, reuse: Reuse) -> bool:
    """The key is made from a literal seed inside the loop that repeats its draw: in place
    (`split(PRNGKey(0), n)`), or bound in the loop's body (`rng = PRNGKey(123)`)."""
    if not reuse.literal:
        return False
    if isinstance(reuse.second.key, cst.Call):
        return True
    if reuse.origin is None:
        return False
    parents = ctx.index.parents()
    loop = _enclosing_loop(parents, reuse.second.call)
    return loop is not None and _enclosing(parents, reuse.origin, loop)


def _enclosing_loop(parents: dict[int, cst.CSTNode], node: cst.CSTNode) -> cst.CSTNode | None:
    while (node := parents.get(id(node))) is not None:  # type: ignore[assignment]
        if isinstance(node, (cst.For, cst.While)):
            return node
    return None


def _enclosing(parents: dict[int, cst.CSTNode], node: cst.CSTNode, outer: cst.CSTNode) -> bool:
    while (node := parents.get(id(node))) is not None:  # type: ignore[assignment]
        if node is outer:
            return True
    return False
