"""What every file is to optlint (`Source`): the Python program analysed, where each program
position is in the file, and how a fixed program goes back into the file; and the diffs both kinds
of file print. A Python file (`optlint.sources.PythonFile`) and a notebook
(`optlint.notebook_file.NotebookFile`) are its two kinds."""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path

from optlint.diagnostics import Diagnostic, Location
from optlint.edits import source_lines
from optlint.source import SourceError, write_fixes


class Source(ABC):
    """One file as the linter sees it. `path` is the file it was read from, where fixes are
    written; None for standard input or an editor's buffer, which are never written."""

    name: str  # the file's name in findings and messages
    path: Path | None
    text: str  # the file's text as read (a notebook's JSON)
    encoding: str
    data: bytes  # the bytes `text` was decoded from

    @property
    @abstractmethod
    def program(self) -> str:
        """The Python text the engine analyses; findings and fixes count in its positions."""

    @abstractmethod
    def place(self, where: Location) -> tuple[int | None, Location]:
        """The cell (None in a Python file) a program position is in, and the position there."""

    @abstractmethod
    def shown(self, diagnostic: Diagnostic) -> Diagnostic:
        """A finding in the positions the user sees (a notebook's cell, and the line in it)."""

    @abstractmethod
    def changes(self, fixed_program: str) -> dict[int | None, str]:
        """The new text of each part a fixed program changed: the file's (key None) or each
        cell's (by number). Raises SourceError when the fixed program cannot go back."""

    @abstractmethod
    def fixed_text(self, fixed_program: str) -> str | None:
        """The file's new text; None when the fix changed nothing the file holds."""

    @abstractmethod
    def diff(self, fixed_program: str) -> str:
        """The fix as unified diffs, as `--diff` prints them."""

    def masked(self, line: int) -> bool:
        """Whether a program line stands in for something else (a notebook's IPython line), so
        that an edit there cannot be made in the file."""
        return False

    def write(self, fixed_text: str) -> None:
        """Write the file's new text where it was read (atomically, as it was encoded); raises
        SourceError, with a one-line message, when it cannot or the file changed since."""
        if self.path is None:
            raise SourceError(f"{self.name}: not a file; fixes not written")
        try:
            write_fixes(self.path, fixed_text, self.encoding, self.data)
        except OSError as error:
            raise SourceError(f"{self.name}: cannot write fixes: {error.strerror or error}") \
                from None


# positions and diffs -----------------------------------------------------------------------------
def unified_diff(old: str, new: str, old_name: str, new_name: str) -> str:
    """A unified diff on the parser's line model; a last line without a line break is marked as
    `diff` and `git` mark it, so that it does not run into the next line of the output."""
    import difflib  # only --diff pays for it

    lines = difflib.unified_diff(source_lines(old), source_lines(new), old_name, new_name)
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of "
                   "file\n" for line in lines)
