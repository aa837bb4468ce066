"""Which calls of one file may consume a key (`candidate_calls`): a library's consumer, a call
given something that reads as a key, a transformation that lifts a function over keys, a call
run per step or row, a `lax.cond` / `switch` handing its branches operands, or a call of
another project file's method that draws from a key an argument holds. The key analysis of a
file looks for helpers and walks only where there is one (`FileKeyCalls`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import CallSite
from optlint.analysis.key_call_targets import CallTargets, passes_key
from optlint.analysis.key_cond_branches import branching
from optlint.analysis.key_helpers import KeyHelpers, key_helpers
from optlint.analysis.key_model_streams import LIFTED_TRANSFORMS
from optlint.analysis.key_library_calls import LibraryKeyCalls
from optlint.analysis.key_transforms import runs_per_step_or_row
from optlint.analysis.prng_keys import Consumption
from optlint.records import record

if TYPE_CHECKING:
    from optlint.context import RuleContext

# Switched off, every call is asked whether it runs another file's method that draws (for the
# tests comparing both): by default only calls in scopes with no other candidate are.
FOREIGN_PER_SCOPE = True
# Switched off, another file's method is asked of calls in functions the cheap candidates make
# helpers too (for the tests comparing both): by default it is not (`candidates_and_helpers`).
FOREIGN_UNREACHED_ONLY = True
# Switched off, a flow made for another file's lookups asks it of every call as the linted
# file's does (for the tests comparing both): by default only of the functions a name asked
# about reaches (`key_helpers.HelpersOnDemand`).
FOREIGN_ON_DEMAND = True
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
    no cheaper question has found a candidate in (`foreign_candidates`)."""
    found = cheap_candidates(ctx, library, targets, library_uses)
    return found.calls | {id(site.node) for site in foreign_candidates(targets, found)}


@record(frozen=False)
class Candidates:
    """The calls the cheap questions found (`calls`, by id), the scopes they are in (by the id
    of their node), and the calls left for the dear one (in scopes with no candidate yet)."""

    calls: set[int]
    scopes: set[int]
    pending: list[CallSite]


def cheap_candidates(ctx: RuleContext, library: LibraryKeyCalls, targets: CallTargets,
                     library_uses: dict[int, list[Consumption]]) -> Candidates:
    """The candidates every question but the dearest finds (see `candidate_calls`)."""
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
    return Candidates(candidates, found_in, pending)


def foreign_candidates(targets: CallTargets, found: Candidates,
                       asked: Callable[[CallSite], bool] | None = None) -> list[CallSite]:
    """The calls left pending that run another file's method drawing from a key an argument
    holds, in scopes with no candidate yet (only those `asked` says to ask); `found.scopes`
    gets their scopes."""
    candidates: list[CallSite] = []
    for site in found.pending:
        if ((not FOREIGN_PER_SCOPE or id(site.scope.node) not in found.scopes)
                and (asked is None or asked(site)) and targets.draws_by_foreign_method(site)):
            candidates.append(site)
            found.scopes.add(id(site.scope.node))
    return candidates


def candidates_and_helpers(ctx: RuleContext, library: LibraryKeyCalls, targets: CallTargets,
                           library_uses: dict[int, list[Consumption]]
                           ) -> tuple[set[int], KeyHelpers]:
    """The file's candidates (`candidate_calls`) and the functions consuming a key through
    them (`key_helpers`).

    A function is a helper when it holds a candidate or calls one that does, so the helpers
    are closed under callers: a candidate in a function the others already make a helper adds
    none. So the dearest question (`foreign_candidates`) is asked once the functions the cheap
    candidates reach by name are known, and not of calls in those (levanter: most of them).
    The file being linted still asks it in each method's own scope: which of a class's methods
    hold a candidate is read there (`key_method_order.py`). A flow made for another file's
    lookups, which asks whether a few names are helpers, asks it only of the functions those
    reach (`key_helpers.HelpersOnDemand`): its candidates are read by nothing else."""
    found = cheap_candidates(ctx, library, targets, library_uses)
    if not found.calls:  # (no helper found by name: every pending call is asked)
        found.calls.update(id(site.node) for site in foreign_candidates(targets, found))
        found.pending = []
    if not found.calls:  # no call that consumes a key: nothing to find, no helper to look for
        return found.calls, KeyHelpers(set(), set(), set())

    def ask_later(reached: Callable[[CallSite], bool]) -> list[CallSite]:
        later = foreign_candidates(targets, found, lambda site: not FOREIGN_UNREACHED_ONLY or (
            not reached(site) or (targets.summarised and _method_scope(site))))
        found.calls.update(id(site.node) for site in later)
        return later

    def ask_now(asked: Callable[[CallSite], bool]) -> list[CallSite]:
        later = foreign_candidates(targets, found, asked)
        found.calls.update(id(site.node) for site in later)
        return later

    if not found.pending:
        return found.calls, key_helpers(ctx, found.calls, targets.runs_named)
    if targets.summarised or not FOREIGN_ON_DEMAND:
        return found.calls, key_helpers(ctx, found.calls, targets.runs_named, ask_later)
    return found.calls, key_helpers(ctx, found.calls, targets.runs_named, on_demand=ask_now)


def _method_scope(site: CallSite) -> bool:
    """`site` is in the body of a method of a class (its own scope, not a lambda's in it)."""
    parent = site.scope.parent
    return type(site.scope.node) is cst.FunctionDef and parent is not None and parent.kind == "class"
