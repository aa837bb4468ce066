"""A notebook as the linter sees it (`optlint.sources.Source`): its code cells joined into one
program, findings and fixes mapped back to cells. Kept apart from `optlint.sources` so that a run
of Python files never imports the notebook format (optlint/notebook.py)."""

from __future__ import annotations

import json
from dataclasses import field, replace
from pathlib import Path

from optlint.diagnostics import Diagnostic, Edit, Fix, Location
from optlint.edits import source_lines
from optlint.notebook import (CodeCell, Notebook, NotebookError, fixed_cell_sources,
                              parse_notebook, splice_sources)
from optlint.program_lines import lines_shown
from optlint.records import record
from optlint.source_base import Source, unified_diff


@record(frozen=False)
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

        def line_shown(line: int) -> str:  # a line the message names (`program_lines`)
            owner, at = cell_at(cells, Location(line, 0))
            return f"cell {owner.number}, line {at.line}"

        return replace(diagnostic, message=lines_shown(diagnostic.message, line_shown),
                       start=start, end=end, fix=fix, cell=cell.number, roles=roles)

    def changes(self, fixed_program: str) -> dict[int | None, str]:
        return {number: text for number, text in self._changed_cells(fixed_program).items()}

    def fixed_text(self, fixed_program: str) -> str | None:
        changed = self._changed_cells(fixed_program)
        if not changed:
            return None
        return self.spliced({number - 1: text for number, text in changed.items()})

    def spliced(self, sources: dict[int, str]) -> str:
        """The file's text with the source of the cell at each position (0-based) replaced."""
        return splice_sources(self.notebook.raw, sources)

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


def notebook_source(data: bytes, name: str, path: Path | None) -> NotebookFile | None:
    """The notebook `data` (read from `path`, if any); None for a notebook in another language.
    Raises SourceError for bytes that are not a notebook."""
    notebook = parse_notebook(data, name)
    return None if notebook is None else NotebookFile(name, path, notebook)


def notebook_from_cells(name: str, cells: list[tuple[bool, str]]) -> NotebookFile:
    """An editor's notebook document: each cell as (is code, text), markdown included so that
    cell numbers are those `optlint check` gives. Never written."""
    content = {"cells": [{"cell_type": "code" if code else "markdown", "source": text}
                         for code, text in cells]}
    notebook = parse_notebook(json.dumps(content).encode(), name)
    assert notebook is not None  # no language metadata: read as Python
    return NotebookFile(name, None, notebook)


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
