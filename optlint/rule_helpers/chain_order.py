"""Shared by the rules about the order of an Optax chain's transformations (OPT008, OPT014,
OPT017): the chains of the file whose parts meet the updates in a harmful order, and the fix that
moves one argument of the chain call."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import libcst as cst

from optlint.analysis.index import CallSite
from optlint.analysis.optax_chain_order import Step, misordered
from optlint.analysis.optax_table import behaviour
from optlint.analysis.values import LibraryRef, TransformValue
from optlint.context import RuleContext
from optlint.fixes import code_in_place, rearranged
from optlint.records import record


@record
class MisorderedChain:
    """A `chain(...)` / `named_chain(...)` call of the file and, for every way it can be built,
    the two steps met in the wrong order."""

    site: CallSite
    chain: TransformValue
    pairs: list[tuple[Step, Step]]

    def common(self, which: int) -> Step | None:
        """The first (which=0) or second step of the pairs, when every way of building the chain
        gives the same transformation call there."""
        steps = [pair[which] for pair in self.pairs]
        first = steps[0]
        same = first.part.call is not None and all(
            step.part.call is first.part.call for step in steps)
        return first if same else None


def misordered_chains(ctx: RuleContext, earlier: Callable[[Step], bool],
                      later: Callable[[Step], bool],
                      rest: Callable[[Step | None], bool] | None = None,
                      ) -> Iterator[MisorderedChain]:
    version = ctx.versions.get("optax").version
    for site, chain in ctx.shared("chain_order.chains", lambda: _chains(ctx)):
        pairs = misordered(chain, version, earlier, later, rest)
        if pairs:
            yield MisorderedChain(site, chain, pairs)


def _chains(ctx: RuleContext) -> list[tuple[CallSite, TransformValue]]:
    """The file's calls of a transformation that wraps many (`chain`, `named_chain`), with the
    chain each builds: the same for every rule about a chain's order."""
    found: list[tuple[CallSite, TransformValue]] = []
    for site, func in ctx.callees():
        if not isinstance(func, LibraryRef):
            continue
        table = behaviour(func.name)
        if table is None or not table.wraps_many:
            continue
        chain = ctx.value(site.node, site)
        if isinstance(chain, TransformValue) and chain.call is site.node:
            found.append((site, chain))
    return found


def reported_chains(ctx: RuleContext, which: int, earlier: Callable[[Step], bool],
                    later: Callable[[Step], bool],
                    rest: Callable[[Step | None], bool] | None = None,
                    ) -> Iterator[tuple[MisorderedChain, cst.CSTNode]]:
    """The misordered chains with the node to report (step `which` of the pair, see
    `flagged_node`), each node once: a step built in a helper and chained in several places is
    one finding."""
    reported: set[int] = set()
    for found in misordered_chains(ctx, earlier, later, rest):
        node = flagged_node(ctx, found, which)
        if id(node) not in reported:
            reported.add(id(node))
            yield found, node


def flagged_node(ctx: RuleContext, found: MisorderedChain, which: int) -> cst.CSTNode:
    """The call of the step to report when it is written in this file, else the chain call."""
    step = found.common(which)
    chain = found.site.node
    if any(arg.star == "*" for arg in chain.args):
        # Parts collected in a list (`txs.append(...)`, then `chain(*txs)`): the order is decided
        # where the list is chained, which is where a reader looks for it.
        return chain
    if step is not None and step.part.call is not None and in_file(ctx, step.part.call):
        return step.part.call
    return chain


def in_file(ctx: RuleContext, node: cst.Call) -> bool:
    return any(site.node is node for site in ctx.calls())


def display(ctx: RuleContext, found: MisorderedChain, which: int) -> str:
    """`optax.adam` under the file's name for optax (`ox.contrib.reduce_on_plateau`); several
    names joined with "/" when the ways of building the chain differ there."""
    optax = ctx.import_alias("optax", "optax")
    names = dict.fromkeys(pair[which].table.name for pair in found.pairs)
    return "/".join(optax + name[len("optax"):] for name in names)


def moved_argument(ctx: RuleContext, found: MisorderedChain, source: int,
                   target: int) -> list[tuple[cst.CSTNode, str]] | None:
    """The chain call with its part `source` moved to position `target` (before the part now
    there; len(args) for the end), each comment with its argument; None when the parts are not
    the call's own positional arguments one for one (`*` unpacking, keywords), a moved argument
    spans lines (its indentation would not follow it), or a comment could not follow its part."""
    args = list(found.site.node.args)
    if (any(arg.star or arg.keyword is not None for arg in args)
            or len(args) != len(found.chain.parts) or not 0 <= source < len(args)
            or not 0 <= target <= len(args)):
        return None
    order = list(range(len(args)))
    order.insert(target if target <= source else target - 1, order.pop(source))
    if any("\n" in ctx.code(args[number].value) or "\r" in ctx.code(args[number].value)
           for position, number in enumerate(order) if position != number):
        return None
    call = rearranged(found.site.node, order)
    if call is None or order == list(range(len(args))):
        return None
    return [(found.site.node, code_in_place(ctx, found.site.node, call))]


def same_top(found: MisorderedChain, which: int) -> int | None:
    """The chain part the step `which` comes from, when every way of building agrees."""
    tops = {pair[which].top for pair in found.pairs}
    return tops.pop() if len(tops) == 1 else None
