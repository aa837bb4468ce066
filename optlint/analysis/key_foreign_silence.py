"""Whether a function of a file whose key flow was made for another file's lookups
(`key_foreign.py`) records no consumption, told without its summary: the walk gate's `silent`
(`key_walk_gate.WalkGate.silent`) for flows that have no walks of their own, hence no gate.

Such flows summarise what the linted file's calls run in other files, and most of what they
summarise draws nothing (levanter: 129 of 165 such summaries recorded no consumption). A call
of a function that `silent` says records none consumes nothing and hands nothing back, as its
summary would say, but only where that summary would be final: `silent` asks what the calls of
the function consume, and an answer resting on a summary still being made (a first round of a
cycle, `key_summary_cycles.py`) could change. These flows reach one another (never the linted
file's own), so the question is asked only while every summary being made by any of them is
this flow's own (`summarising` counts them); otherwise only the answers already made are read.
An answer made during a round of one of its own summaries is noted with the summaries made in
that round (`SummaryCycles.completed`), and dropped with them if the round is made again
(`forget`), as those summaries are."""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

import libcst as cst

from optlint.analysis import key_walk_gate
from optlint.analysis.key_cond_branches import branching
from optlint.analysis.key_flow import KeyFlow
from optlint.analysis.key_summary_cycles import SummaryCycles
from optlint.analysis.key_walk_gate import WalkGate
from optlint.analysis.prng_keys import Consumption, Silent

if TYPE_CHECKING:
    from optlint.analysis.key_calls_view import ForeignLookups
    from optlint.context import RuleContext

# How many summaries of flows made for other files' lookups are being made (in this process):
# `silent` is asked of a flow only when all are its own.
_SUMMARISING = [0]


@contextmanager
def summarising(foreign: bool) -> Iterator[None]:
    """Around the making of a summary (`foreign`: by a flow made for another file's lookups)."""
    if not foreign:
        yield
        return
    _SUMMARISING[0] += 1
    try:
        yield
    finally:
        _SUMMARISING[0] -= 1


class SilenceAsked(Protocol):
    """What `ForeignSilence` reads of the flow it answers for: implemented by
    `key_calls.FileKeyCalls`, declared here since that module imports this one."""

    ctx: RuleContext
    summaries: dict[int, KeyFlow | None]
    cycles: SummaryCycles
    helpers: Container[str]
    higher_order: set[str]

    @property
    def foreign(self) -> ForeignLookups:
        ...

    @property
    def made_key(self) -> Callable[[cst.BaseExpression], str | None]:
        ...

    def consumer(self, call: cst.Call, silent: Silent | None = None) -> list[Consumption]:
        ...

    def returned_keys(self, call: cst.Call, silent: Silent | None = None
                      ) -> dict[tuple[int, ...], Consumption]:
        ...


class ForeignSilence:
    """`silent` for the flow of one file made for another file's lookups."""

    def __init__(self, calls: SilenceAsked) -> None:
        self.calls = calls
        self._gate: WalkGate | None = None

    def __call__(self, function: cst.FunctionDef) -> bool:
        calls = self.calls
        if id(function) in calls.summaries:
            return False  # its summary is read
        gate = self._walk_gate()
        if gate.said_silent(function):
            return True
        # As the linted file's gate asks (`key_file_walks.FileWalks._gate`): of a function of the file worth
        # walking, calling no function it is given by another name either; only while the
        # summaries being made are this flow's own.
        if not (key_walk_gate.SILENT_UNSUMMARISED
                and _SUMMARISING[0] == len(calls.cycles.stack)
                and id(function) not in calls.foreign.owner_of
                and function.name.value in calls.helpers
                and function.name.value not in calls.higher_order):
            return False
        made = len(gate.answered)
        answer = gate.silent(function)
        if calls.cycles.stack:
            # Made during a round of a summary: forgotten with the summaries made in it, if
            # that round is made again (`forget`).
            calls.cycles.completed(gate.answered[made:])
        return answer

    def forget(self, function: int) -> None:
        """Drops the answer made for `function` (by id)."""
        if self._gate is not None:
            self._gate.forget(function)

    def _walk_gate(self) -> WalkGate:
        if self._gate is None:
            calls = self.calls
            self._gate = WalkGate(
                calls.ctx.calls(), calls.ctx.index.every_scope,
                lambda call: calls.consumer(call, self),
                lambda call: calls.returned_keys(call, self), calls.made_key,
                lambda call: branching(calls.ctx, call))
        return self._gate
