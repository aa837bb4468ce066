"""What a file is to optlint: the Python program analysed, where each program position is in the
file, and how a fixed program goes back into the file.

A Python file is its own program. A notebook's program is its code cells joined as
`optlint.notebook` joins them; its positions, fixes and diffs are by cell. `check`, `--diff`, the
language server and the verifier all see a file through one of these objects, so the engine
lints a program and never needs to know what a notebook is (ruff's `SourceKind` does the same).
What every kind of file answers is `optlint.source_base.Source`; a notebook's kind
(`optlint.notebook_file.NotebookFile`) is imported only when a notebook is read.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from optlint.diagnostics import Diagnostic, Location
from optlint.program_lines import lines_shown
from optlint.records import record
from optlint.source import SourceError, decode, read_bytes
from optlint.source_base import Source, unified_diff


@record(frozen=False)
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
        if "\x00" not in diagnostic.message:
            return diagnostic
        # A program line marked for a notebook (`program_lines`), in a file read as Python.
        return replace(diagnostic, message=lines_shown(diagnostic.message, lambda n: f"line {n}"))

    def changes(self, fixed_program: str) -> dict[int | None, str]:
        return {} if fixed_program == self.text else {None: fixed_program}

    def fixed_text(self, fixed_program: str) -> str | None:
        return None if fixed_program == self.text else fixed_program

    def diff(self, fixed_program: str) -> str:
        return unified_diff(self.text, fixed_program, f"a/{self.name}", f"b/{self.name}")


# opening -----------------------------------------------------------------------------------------
def open_source(path: Path) -> Source | None:
    """The file at `path`; None for a notebook in another language, or a `.md` that does not
    declare itself a Python notebook (`not_read_notice` says why). Raises SourceError (one line)
    for a file that cannot be read, decoded or parsed as a notebook."""
    return _from_bytes(read_bytes(path), str(path), path)


def source_from_bytes(data: bytes, name: str) -> Source | None:
    """Bytes from standard input, read as the file `name` would be; nothing is ever written."""
    return _from_bytes(data, name, None)


def _from_bytes(data: bytes, name: str, path: Path | None) -> Source | None:
    if name.endswith(".ipynb"):  # optlint.notebook.NOTEBOOK_SUFFIX, imported only for notebooks
        from optlint.notebook_file import notebook_source

        return notebook_source(data, name, path)
    if name.endswith(".md"):  # optlint.notebook.MYST_SUFFIX: a notebook only by its front matter
        from optlint.myst_file import myst_source

        return myst_source(data, name, path)
    decoded = decode(data, name)
    return PythonFile(name, path, decoded.text, decoded.encoding, data)


def not_read_notice(path: Path) -> list[str]:
    """Why a file named explicitly was not checked when `open_source` gave nothing: said of a
    `.md` (a README named on the command line is skipped, not an error); nothing otherwise."""
    if not path.name.endswith(".md"):
        return []
    from optlint.myst import declaration
    from optlint.source import read_bytes

    try:
        text = read_bytes(path).decode("utf-8-sig", errors="replace")
    except SourceError:
        return []
    return [f"{path}: {declaration(text).reason()}"]
