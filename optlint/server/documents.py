"""What the server lints for an editor document, and where each program position is in the editor.

A Python file is linted as it is. A notebook's code cells are read as the source `optlint check`
reads from its file (`optlint.notebook_file.NotebookFile`: one program, IPython lines replaced), so the
editor shows the findings the command line reports; positions are then mapped back to the cell
they fall in. A MyST / jupytext Markdown notebook (a `.md` whose front matter declares one) is
one text document to the editor: its cells are read as `optlint check` reads the file, and
positions are mapped back to the file's own lines. Editors count columns in UTF-16 code units
unless the client offers another encoding; optlint counts characters, so every position crosses
`to_editor`/`from_editor`.
"""

from __future__ import annotations

from dataclasses import field
from pathlib import Path

from lsprotocol import types
from pygls.uris import to_fs_path
from pygls.workspace import Workspace
from pygls.workspace.position_codec import PositionCodec

from optlint.diagnostics import Location
from optlint.edits import source_lines
from optlint.myst_file import MystFile, myst_source
from optlint.notebook_file import notebook_from_cells
from optlint.records import record
from optlint.source import SourceError
from optlint.sources import PythonFile, Source


@record(frozen=False)
class Subject:
    """One linted unit: a Python file, or a notebook's code cells as one program."""

    uri: str  # the file's or the notebook's
    version: int | None
    path: Path
    source: Source  # what is linted: `source.program`
    texts: dict[str, str]  # uri -> the text the editor shows there (the file, or each cell)
    cell_uris: dict[int, str] = field(default_factory=dict)  # cell number -> its uri
    _lines: dict[str, list[str]] = field(default_factory=dict)  # by uri, as the editor counts

    @property
    def filename(self) -> str:
        return str(self.path)

    @property
    def program(self) -> str:
        return self.source.program

    def lines(self, uri: str) -> list[str]:
        if uri not in self._lines:
            self._lines[uri] = source_lines(self.texts[uri])
        return self._lines[uri]

    def same_text(self, other: Subject) -> bool:
        """Whether the editor shows the same text (a notebook's program differs between two
        reads of the same cells: its separators carry a token made for each read)."""
        return self.texts == other.texts and self.cell_uris == other.cell_uris

    def place(self, where: Location) -> tuple[str, Location]:
        """The editor document a program position is in, and the position there."""
        if isinstance(self.source, MystFile):  # the cells are lines of the one document
            return self.uri, self.source.file_location(where)
        cell, inside = self.source.place(where)
        return (self.uri if cell is None else self.cell_uris[cell]), inside

    def changed_texts(self, fixed_program: str) -> dict[str, str]:
        """The new text of each editor document the fixed program changes. Raises SourceError
        when it cannot go back (a fix that moved a notebook cell's boundary)."""
        if isinstance(self.source, MystFile):
            fixed = self.source.fixed_text(fixed_program)
            return {} if fixed is None else {self.uri: fixed}
        return {self.uri if cell is None else self.cell_uris[cell]: text
                for cell, text in self.source.changes(fixed_program).items()}

    def code_lines(self, uri: str, line: int) -> tuple[int, list[str]]:
        """The Python code around the document's `line` (1-based) as lines, and how many lines
        of the document come before it: a file or a cell is all code; in a MyST notebook, the
        code of the cell holding the line (none outside every cell)."""
        lines = self.lines(uri)
        if not isinstance(self.source, MystFile):
            return 0, lines
        span = self.source.cell_lines(line)
        if span is None:
            return line - 1, []
        return span[0] - 1, lines[span[0] - 1:span[1] - 1]

    def on_placeholder(self, where: Location) -> bool:
        """Whether a program line stands for an IPython line (a fix there would edit `pass`)."""
        return self.source.masked(where.line)


def file_subject(uri: str, text: str, version: int | None) -> Subject:
    path = uri_path(uri)
    return Subject(uri, version, path, PythonFile(str(path), None, text), {uri: text})


def myst_subject(uri: str, text: str, version: int | None) -> Subject | None:
    """A `.md` document that declares itself a Python notebook in its front matter; None for
    any other (a README), which is not linted, as `optlint check` skips it."""
    path = uri_path(uri)
    try:
        source = myst_source(text.encode("utf-8", "surrogatepass"), str(path), None)
    except SourceError:  # text no UTF-8 can hold: no notebook jupytext would read
        return None
    return None if source is None else Subject(uri, version, path, source, {uri: text})


def notebook_subject(workspace: Workspace, notebook: types.NotebookDocument) -> Subject | None:
    """The notebook's cells (markdown too, so cell numbers match `optlint check`'s); None when a
    cell's text is not known yet."""
    cells, texts, uris = [], {}, {}
    for number, cell in enumerate(notebook.cells, start=1):
        document = workspace.text_documents.get(cell.document)
        if document is None:
            return None
        code = cell.kind == types.NotebookCellKind.Code
        cells.append((code, document.source))
        if code:
            texts[cell.document] = document.source
            uris[number] = cell.document
    path = uri_path(notebook.uri)
    return Subject(notebook.uri, notebook.version, path, notebook_from_cells(str(path), cells),
                   texts, uris)


def uri_path(uri: str) -> Path:
    """The file a document is; an unsaved buffer (`untitled:`) is taken to be in the current
    folder, so that it is still linted with that folder's settings."""
    path = to_fs_path(uri)
    return Path(path) if path else Path.cwd() / uri.rsplit("/", 1)[-1].replace(":", "_")


# positions ---------------------------------------------------------------------------------------
def to_editor(lines: list[str], where: Location, codec: PositionCodec) -> types.Position:
    line = where.line - 1
    if line >= len(lines):  # the end of the text (an edit appending a line)
        return types.Position(line=len(lines), character=0)
    text = lines[line].rstrip("\r\n")
    return types.Position(line=line, character=codec.client_num_units(text[:where.column - 1]))


def to_editor_range(lines: list[str], start: Location, end: Location,
                    codec: PositionCodec) -> types.Range:
    return types.Range(start=to_editor(lines, start, codec), end=to_editor(lines, end, codec))


def from_editor(lines: list[str], position: types.Position, codec: PositionCodec) -> Location:
    if position.line >= len(lines):
        return Location(len(lines) + 1, 1)
    text = lines[position.line].rstrip("\r\n")
    units, column = 0, 0
    while column < len(text) and units < position.character:
        units += codec.client_num_units(text[column])
        column += 1
    return Location(position.line + 1, column + 1)
