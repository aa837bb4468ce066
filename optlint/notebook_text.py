"""What a notebook kept as a text file is made of (a MyST notebook, `optlint.myst`; jupytext's
markdown format, `optlint.notebook_markdown`): a YAML front matter, and code cells that are lines
of the file."""

from __future__ import annotations

from optlint.notebook import CodeCell
from optlint.records import record


@record(frozen=False)
class TextCell(CodeCell):
    file_start: int  # the 0-based index of the file line the cell's code starts on
    file_end: int  # ... and of the line after its code (the closing fence, or the file's end)
    foreign: bool = False  # in another language than Python: no line of it is analysed


def front_matter(lines: list[str]) -> int:
    """How many lines the front matter takes (its `---` fences included); 0 without one."""
    if not lines or lines[0].rstrip() != "---":
        return 0
    for index, line in enumerate(lines[1:], start=1):
        if line.rstrip() == "---":
            return index + 1
    return 0
