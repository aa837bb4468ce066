"""The Python program a file is to the verifier: a `.py` file's text, or a notebook's code cells
as `check` joins them (IPython magics as comments). Findings are planned and run on the program;
`shown` gives a finding the positions the user sees (a notebook's cell and line), and
`file_text` turns a fixed program back into the file's text."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from optlint.diagnostics import Diagnostic
from optlint.notebook import NOTEBOOK_SUFFIX, Notebook, fixed_json, in_cells, read_notebook
from optlint.source import read_source


@dataclass
class Program:
    text: str
    encoding: str
    data: bytes  # the file's bytes, as read
    notebook: Notebook | None = None

    def shown(self, diagnostic: Diagnostic) -> Diagnostic:
        return diagnostic if self.notebook is None else in_cells(self.notebook, [diagnostic])[0]

    def file_text(self, fixed_program: str | None) -> str | None:
        """The file's new text for a fixed program (None: unchanged)."""
        return fixed_program if self.notebook is None else fixed_json(self.notebook,
                                                                      fixed_program)

    @property
    def original_file_text(self) -> str:
        return self.text if self.notebook is None else self.notebook.raw


def program_of(path: Path) -> Program | None:
    """None for a notebook in another language; raises SourceError or NotebookError."""
    if path.suffix == NOTEBOOK_SUFFIX:
        notebook = read_notebook(path)
        if notebook is None:
            return None
        return Program(notebook.program, notebook.encoding, notebook.data, notebook)
    source = read_source(path)
    return Program(source.text, source.encoding, source.data)
