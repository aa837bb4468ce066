"""A MyST Markdown notebook as the linter sees it: a notebook (`NotebookFile`: its code cells one
program, findings placed by cell) whose cells are lines of a text file. Fixed cells go back into
those lines (`optlint.myst.splice_cells`), and `--diff` shows the file's own diff, which applies
to the `.md` as any patch does. Findings carry the file's line as well as the cell's (the JSON,
SARIF and annotation formats give it)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from optlint.diagnostics import Diagnostic, Location
from optlint.myst import parse_myst, splice_cells
from optlint.notebook_text import TextCell
from optlint.notebook_file import NotebookFile, cell_at
from optlint.records import record
from optlint.source_base import unified_diff


@record(frozen=False)
class MystFile(NotebookFile):
    def spliced(self, sources: dict[int, str]) -> str:
        return splice_cells(self.notebook, sources)

    def diff(self, fixed_program: str) -> str:
        fixed = self.fixed_text(fixed_program)
        if fixed is None:
            return ""
        return unified_diff(self.text, fixed, f"a/{self.name}", f"b/{self.name}")

    def shown(self, diagnostic: Diagnostic) -> Diagnostic:
        """Placed by cell, as an .ipynb's finding, with the file's own line too."""
        shown = super().shown(diagnostic)
        if not self.notebook.cells:
            return shown
        return replace(shown, file_line=self.file_location(diagnostic.start).line)

    def file_location(self, where: Location) -> Location:
        """A program position in the file's own lines (a cell's code is the file's lines, as
        written: the column is the same)."""
        if not self.notebook.cells:
            return where
        cell, inside = cell_at(self.notebook.cells, where)
        assert isinstance(cell, TextCell)
        return Location(cell.file_start + inside.line, inside.column)

    def cell_lines(self, file_line: int) -> tuple[int, int] | None:
        """The file lines (1-based, the last excluded) of the code of the cell holding
        `file_line`; None for a line outside every cell's code."""
        for cell in self.notebook.cells:
            assert isinstance(cell, TextCell)
            if cell.file_start < file_line <= cell.file_end:
                return cell.file_start + 1, cell.file_end + 1
        return None


def myst_source(data: bytes, name: str, path: Path | None) -> MystFile | None:
    """The MyST notebook `data` (read from `path`, if any); None for a `.md` that does not
    declare itself a Python notebook. Raises SourceError for bytes that are not UTF-8."""
    notebook = parse_myst(data, name)
    return None if notebook is None else MystFile(name, path, notebook)
