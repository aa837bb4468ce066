"""Summaries of functions that call one another in a cycle (`draw_a` calls `draw_b`, which calls
`draw_a`), made the same whichever of them is asked first (`SummaryCycles`).

A function met again while it is being summarised is taken, for that call, as its summary so far
(nothing, on the first round). What was summarised meanwhile rests on that assumption: kept, it
would make a later answer depend on which function of the cycle was asked first. The key flows
of other files are kept for the whole run and asked by every file that calls into them
(`key_foreign.py`), so that order is the order files are checked in, which the number of jobs,
the cache and the pool's scheduling change. So the function first met again (the cycle's head)
is summarised again with its last summary in place, until what it consumes stops changing, and
what was summarised during a round that is not the last is forgotten, to be asked again.
"""

from __future__ import annotations

from collections.abc import Hashable

# How many times a cycle's head is summarised at most (its summary only grows: one more round
# than the cycle's length settles every cycle real code has).
ROUNDS = 4


class SummaryCycles:
    """Which functions are being summarised, and what was summarised while they were."""

    def __init__(self) -> None:
        self.stack: list[int] = []  # the functions being summarised, outermost first
        # Functions whose summary met a call of themselves: walked again for their own
        # findings, once their summary is known.
        self.recursive: set[int] = set()
        self._heads: set[int] = set()  # being summarised, and met again meanwhile
        self._completed: list[int] = []  # the summaries made, in the order they were made

    def met_again(self, function: int) -> bool:
        """`function` is called while it is being summarised (True): it and the functions
        summarised since are recursive, and it heads a cycle."""
        if function not in self.stack:
            return False
        self.recursive.update(self.stack[self.stack.index(function):])
        self._heads.add(function)
        return True

    def start(self, function: int) -> int:
        """A round of summarising `function` begins; the mark to give `finish`."""
        self.stack.append(function)
        return len(self._completed)

    def completed(self, functions: list[int]) -> None:
        """Answers made about `functions` during the rounds being made (not summaries): given
        with the summaries made since a round's mark, to be made again with them."""
        self._completed.extend(functions)

    def finish(self, function: int, mark: int) -> list[int] | None:
        """The round ends. None when no call of `function` was met in it; else the summaries
        made during the round (each rests on its summary before the round)."""
        self.stack.pop()
        made = None
        if function in self._heads:
            self._heads.discard(function)
            made = self._completed[mark:]
        self._completed.append(function)
        return made


def settled(before: object, after: object, facts: tuple[str, ...]) -> bool:
    """Two summaries of one function agree on `facts` (the attributes a caller reads)."""
    return before is not None and all(
        _plain(getattr(before, fact)) == _plain(getattr(after, fact)) for fact in facts)


def _plain(value: object) -> object:
    """A summary's fact without the identity of the consumptions it holds."""
    if isinstance(value, dict):
        return frozenset(key for key in value if isinstance(key, Hashable))
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    return value
