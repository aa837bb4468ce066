"""Which calls of one file may consume a key (`candidate_calls`): a library's consumer, a call
given something that reads as a key, a transformation that lifts a function over keys, a call
run per step or row, a `lax.cond` / `switch` handing its branches operands, or a call of
another project file's method that draws from a key an argument holds. The key analysis of a
file looks for helpers and walks only where there is one (`FileKeyCalls`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from optlint.analysis.index import CallSite
from optlint.analysis.key_call_targets import CallTargets, passes_key
from optlint.analysis.key_cond_branches import branching
from optlint.analysis.key_model_streams import LIFTED_TRANSFORMS
from optlint.analysis.key_library_calls import LibraryKeyCalls
from optlint.analysis.key_transforms import runs_per_step_or_row
from optlint.analysis.prng_keys import Consumption

if TYPE_CHECKING:
    from optlint.context import RuleContext

# Switched off, every call is asked whether it runs another file's method that draws (for the
# tests comparing both): by default only calls in scopes with no other candidate are.
FOREIGN_PER_SCOPE = True
# Switched off, every call is asked every question (for the tests comparing both): by default
# a scope's calls after its first candidate are asked none.
PER_SCOPE = True


def candidate_calls(ctx: RuleContext, library: LibraryKeyCalls, targets: CallTargets,
                    library_uses: dict[int, list[Consumption]]) -> set[int]:
    """The ids of the file's calls that may consume a key; `library_uses` gets what the calls
    asked consume as a library's consumer (every walk asks it again; `FileKeyCalls.consumer`
    fills it in for the others).

    Every reader of the candidates asks per scope (whether a scope, or the function holding
    it, has one), so a scope's calls after its first candidate are asked nothing (what a walk
    of it asks of them, it asks then); a call of another file's method, the dearest question
    (it evaluates the receiver and may summarise that file's method), is asked only in scopes
    no cheaper question has found a candidate in."""
    candidates: set[int] = set()
    pending: list[CallSite] = []
    found_in: set[int] = set()  # the scopes with a candidate, by the id of their node
    for site in ctx.calls():
        if PER_SCOPE and id(site.scope.node) in found_in:
            continue
        direct = library_uses[id(site.node)] = library.consumptions(site.node)
        if (direct or passes_key(site.node)  # (the cheapest questions first)
                or ctx.qualify(site.node.func) in LIFTED_TRANSFORMS
                or runs_per_step_or_row(ctx, site)
                or (len(site.node.args) > 2 and branching(ctx, site.node))):  # cond operands
            candidates.add(id(site.node))
            found_in.add(id(site.scope.node))
        else:
            pending.append(site)
    for site in pending:
        if ((not FOREIGN_PER_SCOPE or id(site.scope.node) not in found_in)
                and targets.draws_by_foreign_method(site)):
            candidates.add(id(site.node))
            found_in.add(id(site.scope.node))
    return candidates
