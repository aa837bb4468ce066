"""What a file is to optlint: the Python program analysed, where each program position is in the
file, and how a fixed program goes back into the file.

A Python file is its own program. A notebook's program is its code cells joined as
`optlint.notebook` joins them; its positions, fixes and diffs are by cell. `check`, `--diff`, the
language server and the verifier all see a file through one of these objects, so the engine
lints a program and never needs to know what a notebook is (ruff's `SourceKind` does the same).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from pathlib import Path

from optlint.diagnostics import Diagnostic, Edit, Fix, Location
from optlint.edits import source_lines
from optlint.notebook import (NOTEBOOK_SUFFIX, CodeCell, Notebook, NotebookError,
                              fixed_cell_sources, parse_notebook, splice_sources)
from optlint.source import SourceError, decode, read_bytes, write_fixes


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


@dataclass
class PythonFile(Source):
    name: str
    path: Path | None
    text: str
    encoding: str = "utf-8"
    data: bytes = b""

    @property
    def program(self) -> str:
        return self.text

    def place(self, where: Location) -> tuple[int | None, Location]:
        return None, where

    def shown(self, diagnostic: Diagnostic) -> Diagnostic:
        return diagnostic

    def changes(self, fixed_program: str) -> dict[int | None, str]:
        return {} if fixed_program == self.text else {None: fixed_program}

    def fixed_text(self, fixed_program: str) -> str | None:
        return None if fixed_program == self.text else fixed_program

    def diff(self, fixed_program: str) -> str:
        return unified_diff(self.text, fixed_program, f"a/{self.name}", f"b/{self.name}")


@dataclass
class NotebookFile(Source):
    name: str
    path: Path | None
    notebook: Notebook
    text: str = field(init=False, repr=False)  # the notebook's, kept for every reader
    encoding: str = field(init=False)
    data: bytes = field(init=False, repr=False)
    _program_lines: list[str] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.text, self.encoding = self.notebook.raw, self.notebook.encoding
        self.data = self.notebook.data

    @property
    def program(self) -> str:
        return self.notebook.program

    def place(self, where: Location) -> tuple[int | None, Location]:
        if not self.notebook.cells:
            return None, where
        cell, inside = cell_at(self.notebook.cells, where)
        return cell.number, inside

    def shown(self, diagnostic: Diagnostic) -> Diagnostic:
        cells = self.notebook.cells
        if not cells:
            return diagnostic
        cell, start = cell_at(cells, diagnostic.start)
        end = Location(diagnostic.end.line - cell.first_line + 1, diagnostic.end.column)

        def inside(where: Location) -> Location:
            return cell_at(cells, where)[1]

        # Each edit and role counts within its own cell (an added import may go to another).
        fix = diagnostic.fix
        if fix is not None:
            fix = Fix(fix.applicability, fix.message, tuple(
                Edit(inside(edit.start), inside(edit.end), edit.content) for edit in fix.edits))
        roles = tuple(replace(role, start=inside(role.start), end=inside(role.end),
                              cell=cell_at(cells, role.start)[0].number)
                      if role.start is not None and role.end is not None else role
                      for role in diagnostic.roles)
        return replace(diagnostic, start=start, end=end, fix=fix, cell=cell.number, roles=roles)

    def changes(self, fixed_program: str) -> dict[int | None, str]:
        return {number: text for number, text in self._changed_cells(fixed_program).items()}

    def fixed_text(self, fixed_program: str) -> str | None:
        changed = self._changed_cells(fixed_program)
        if not changed:
            return None
        return splice_sources(self.notebook.raw,
                              {number - 1: text for number, text in changed.items()})

    def diff(self, fixed_program: str) -> str:
        old = {cell.number: cell.text for cell in self.notebook.cells}
        pieces = []
        for number, new in sorted(self._changed_cells(fixed_program).items()):
            header = f"{self.name}:cell {number}"
            pieces.append(unified_diff(old[number], new, header, header))
        return "".join(pieces)

    def _changed_cells(self, fixed_program: str) -> dict[int, str]:
        try:
            changed = fixed_cell_sources(self.notebook, fixed_program)
        except NotebookError as error:  # the fix moved a cell boundary
            raise NotebookError(f"{self.name}: {error}") from None
        return {position + 1: text for position, text in changed.items()}

    def masked(self, line: int) -> bool:
        if self._program_lines is None:
            self._program_lines = source_lines(self.program)
        lines = self._program_lines
        return 0 < line <= len(lines) and self.notebook.magic_token in lines[line - 1]


# opening -----------------------------------------------------------------------------------------
def open_source(path: Path) -> Source | None:
    """The file at `path`; None for a notebook in another language. Raises SourceError (one
    line) for a file that cannot be read, decoded or parsed as a notebook."""
    return _from_bytes(read_bytes(path), str(path), path)


def source_from_bytes(data: bytes, name: str) -> Source | None:
    """Bytes from standard input, read as the file `name` would be; nothing is ever written."""
    return _from_bytes(data, name, None)


def _from_bytes(data: bytes, name: str, path: Path | None) -> Source | None:
    if name.endswith(NOTEBOOK_SUFFIX):
        notebook = parse_notebook(data, name)
        return None if notebook is None else NotebookFile(name, path, notebook)
    decoded = decode(data, name)
    return PythonFile(name, path, decoded.text, decoded.encoding, data)


def notebook_from_cells(name: str, cells: list[tuple[bool, str]]) -> NotebookFile:
    """An editor's notebook document: each cell as (is code, text), markdown included so that
    cell numbers are those `optlint check` gives. Never written."""
    content = {"cells": [{"cell_type": "code" if code else "markdown", "source": text}
                         for code, text in cells]}
    notebook = parse_notebook(json.dumps(content).encode(), name)
    assert notebook is not None  # no language metadata: read as Python
    return NotebookFile(name, None, notebook)


# positions and diffs -----------------------------------------------------------------------------
def cell_at(cells: list[CodeCell], where: Location) -> tuple[CodeCell, Location]:
    """The cell a program position falls in, and the position within that cell.

    A position on a boundary line belongs to the end of the cell before it; an empty cell owns
    no line, so a position there belongs to the cell before it too."""
    owner = cells[0]
    for cell in cells:
        if cell.first_line > where.line:
            break
        if cell.line_count or owner.line_count == 0:
            owner = cell
    return owner, Location(where.line - owner.first_line + 1, where.column)


def unified_diff(old: str, new: str, old_name: str, new_name: str) -> str:
    """A unified diff on the parser's line model; a last line without a line break is marked as
    `diff` and `git` mark it, so that it does not run into the next line of the output."""
    import difflib  # only --diff pays for it

    lines = difflib.unified_diff(source_lines(old), source_lines(new), old_name, new_name)
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of "
                   "file\n" for line in lines)
