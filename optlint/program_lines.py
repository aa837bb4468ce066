"""Lines named in a finding's message, as the user sees them. A notebook's program joins its code
cells, so a rule cannot know which cell a line of it is in: it writes `program_line(n)` into the
message, and the notebook (`optlint.notebook_file.NotebookFile.shown`) writes `cell 4, line 3` in
its place, as it places the finding and its roles."""

from __future__ import annotations

from collections.abc import Callable

from optlint.patterns import compiled

# A control character no message text holds: the mark cannot be mistaken for the rule's words.
_MARK = "\x00line (\\d+)\x00"  # (compiled when first used: `optlint.patterns`)


def program_line(line: int) -> str:
    """A mark for line `line` of the checked program, replaced by `lines_shown`."""
    return f"\x00line {line}\x00"


def lines_shown(message: str, show: Callable[[int], str]) -> str:
    """`message` with each mark replaced by `show(line)`: `cell 4, line 3` in a notebook."""
    if "\x00" not in message:
        return message
    return compiled(_MARK).sub(lambda found: show(int(found.group(1))), message)
