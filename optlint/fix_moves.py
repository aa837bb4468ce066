"""Where a piece of the original text is in the fixed text: its offsets mapped through the edits
the fixes made, round after round, rather than found again by counting what looks like it.

An edit before the piece shifts it; one inside it stretches it; text inserted right before the
piece goes before it, right after it goes after it. An edit that rewrites the piece's own text
keeps track of it only when it keeps that text whole (`masked(adamw(...), mask)` wraps the
`adamw(...)` it replaces); any other makes the piece's place unknown (None).
"""

from __future__ import annotations

from collections.abc import Sequence

from optlint.edits import Span

# One round of fixes: each edit's start and end (offsets into the round's text), the text it
# replaced and what it put there.
Edited = tuple[int, int, str, str]
EditRound = tuple[Edited, ...]


def edit_round(text: str, spans: Sequence[Span]) -> EditRound:
    return tuple((start, end, text[start:end], content) for start, end, content in spans)


def moved(rounds: Sequence[EditRound], start: int, end: int) -> tuple[int, int] | None:
    """Where the text between offsets `start` and `end` is after every round; None when an edit
    rewrote part of it."""
    for edits in rounds:
        pieces = [piece for edit in edits for piece in _pieces(edit)]
        new_start = _moved_point(pieces, start, at_start=True)
        new_end = _moved_point(pieces, end, at_start=False)
        if new_start is None or new_end is None or new_end < new_start:
            return None
        start, end = new_start, new_end
    return start, end


def _pieces(edit: Edited) -> list[tuple[int, int, str]]:
    """An edit that keeps the text it replaces whole (once) is two insertions around it."""
    start, end, old, new = edit
    if old and new.count(old) == 1:
        at = new.index(old)
        return [(start, start, new[:at]), (end, end, new[at + len(old):])]
    return [(start, end, new)]


def _moved_point(pieces: list[tuple[int, int, str]], point: int, at_start: bool) -> int | None:
    """Where `point` goes: a piece's insertion at it moves a start, not an end."""
    shift = 0
    for start, end, new in pieces:
        if start < point < end:
            return None  # replaced
        before = end <= point if start < end else (start < point or (at_start and start == point))
        if before:
            shift += len(new) - (end - start)
    return point + shift
