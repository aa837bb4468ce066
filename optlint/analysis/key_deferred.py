"""Draws whose "does the result reach anything" question is put off (`key_reads.py` answers it,
at a cost): a draw from a key local to the walked body is taken as drawn, and asked only when
the walk meets the key again on the same path (a name read, a consumption of it), the one place
the answer could change what the walk records. Nearly every draw's result is read: most are
never asked. A draw found to reach nothing there ends the walk (`UnreadDrawFound`), which is
made again asking every draw as it comes, so the walk records exactly what that would."""

from __future__ import annotations

from collections.abc import Iterable

from optlint.analysis.key_reads import UnreadResults
from optlint.analysis.key_state import KeyState, PendingDraw


class UnreadDrawFound(Exception):
    """A put-off draw of `flow`'s walk reaches nothing: the walk is made again."""

    def __init__(self, flow: object) -> None:
        super().__init__()
        self.flow = flow


class UnreadCalls:
    """The calls of one walk whose result reaches nothing, by id: those found so as the walk
    went (`known`), and put-off draws, asked when a reader of the walk asks of one."""

    def __init__(self) -> None:
        self.known: set[int] = set()
        self.deferred: dict[int, PendingDraw] = {}
        self.results: UnreadResults | None = None  # what answers, once the walk runs

    def add(self, call: int) -> None:
        self.known.add(call)

    def __contains__(self, call: object) -> bool:
        if call in self.known:
            return True
        draw = self.deferred.pop(call, None) if isinstance(call, int) else None
        if draw is None or self.results is None or not self.results.unread(*draw):
            return False
        self.known.add(call)  # type: ignore[arg-type]
        return True


def settle(state: KeyState, names: Iterable[str], results: UnreadResults | None,
           flow: object) -> None:
    """Asks the draws put off for `names` on this path; raises `UnreadDrawFound` for one whose
    result reaches nothing."""
    for name in names:
        for call, statement, block in state.pending.pop(name, ()):
            if results is not None and results.unread(call, statement, block):
                raise UnreadDrawFound(flow)
