"""The source objects (`optlint.sources`): what the engine analyses, where a program position is in
the file, and how a fixed program goes back into it; in process, without the CLI."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from optlint.diagnostics import Diagnostic, Edit, Fix, Location
from optlint.source import SourceError
from optlint.notebook_file import NotebookFile
from optlint.sources import PythonFile, open_source, source_from_bytes

CELLS = [{"cell_type": "markdown", "metadata": {}, "source": ["# Title"]},
         {"cell_type": "code", "metadata": {}, "outputs": [], "source": ["import optax\n",
                                                                          "%matplotlib inline"]},
         {"cell_type": "code", "metadata": {}, "outputs": [], "source": ["x = 1\n", "y = 2"]}]


def notebook_bytes(cells: list[dict[str, object]] = CELLS, language: str = "python") -> bytes:
    content = {"cells": cells, "metadata": {"language_info": {"name": language}},
               "nbformat": 4, "nbformat_minor": 5}
    return (json.dumps(content, indent=1) + "\n").encode()


def opened(tmp_path: Path, name: str, data: bytes) -> PythonFile | NotebookFile:
    path = tmp_path / name
    path.write_bytes(data)
    source = open_source(path)
    assert isinstance(source, (PythonFile, NotebookFile))
    return source


def program_line(source: NotebookFile, text: str) -> int:
    return source.program.splitlines().index(text) + 1


# Python files ------------------------------------------------------------------------------------
def test_a_python_file_is_its_own_program_and_is_written_back_as_read(tmp_path: Path) -> None:
    data = "# -*- coding: latin-1 -*-\r\nname = 'café'\r\n".encode("latin-1")
    source = opened(tmp_path, "train.py", data)
    os.chmod(tmp_path / "train.py", 0o751)
    assert source.program == source.text == data.decode("latin-1")
    assert source.place(Location(2, 3)) == (None, Location(2, 3))
    fixed = source.program.replace("name", "label")
    assert source.changes(fixed) == {None: fixed} and source.changes(source.program) == {}
    assert source.fixed_text(fixed) == fixed
    source.write(fixed)
    assert (tmp_path / "train.py").read_bytes() == fixed.encode("latin-1")  # \r\n kept
    assert (tmp_path / "train.py").stat().st_mode & 0o777 == 0o751


def test_nothing_is_written_over_a_file_changed_since_it_was_read(tmp_path: Path) -> None:
    source = opened(tmp_path, "train.py", b"x = 1\n")
    (tmp_path / "train.py").write_bytes(b"x = 2\n")
    with pytest.raises(SourceError, match="changed since it was read"):
        source.write("x = 3\n")
    assert (tmp_path / "train.py").read_bytes() == b"x = 2\n"


def test_a_python_diff_marks_a_last_line_without_a_line_break(tmp_path: Path) -> None:
    source = opened(tmp_path, "train.py", b"a = 1\nb = 2")
    assert source.diff("a = 1\nb = 3") == (
        "--- a/{0}\n+++ b/{0}\n@@ -1,2 +1,2 @@\n a = 1\n-b = 2\n\\ No newline at end of file\n"
        "+b = 3\n\\ No newline at end of file\n").format(tmp_path / "train.py")


def test_standard_input_is_read_as_the_name_says_and_never_written() -> None:
    source = source_from_bytes(b"x = 1\n", "-")
    assert isinstance(source, PythonFile) and source.path is None
    with pytest.raises(SourceError, match="not a file"):
        source.write("x = 2\n")
    assert isinstance(source_from_bytes(notebook_bytes(), "nb.ipynb"), NotebookFile)
    assert source_from_bytes(notebook_bytes(language="julia"), "nb.ipynb") is None
    with pytest.raises(SourceError, match="not a valid notebook"):
        source_from_bytes(b"{", "nb.ipynb")


# notebooks ---------------------------------------------------------------------------------------
def test_program_positions_map_to_cells_counted_as_editors_count(tmp_path: Path) -> None:
    source = opened(tmp_path, "nb.ipynb", notebook_bytes())
    assert isinstance(source, NotebookFile)
    line = program_line(source, "y = 2")
    assert source.place(Location(line, 5)) == (3, Location(2, 5))  # markdown is cell 1
    assert source.place(Location(1, 1)) == (2, Location(1, 1))
    assert source.masked(2) and not source.masked(1)  # `%matplotlib inline` stands as `pass`
    edit = Edit(Location(1, 1), Location(1, 1), "import jax\n")
    diagnostic = Diagnostic("OPT001", "name", "message", "nb.ipynb", Location(line, 1),
                            Location(line, 6), Fix("safe", "fix", (edit,)))
    shown = source.shown(diagnostic)
    assert (shown.cell, shown.start, shown.end) == (3, Location(2, 1), Location(2, 6))
    assert shown.fix is not None and shown.fix.edits == (edit,)  # in cell 2, its first line


def test_a_fixed_program_goes_back_into_the_changed_cells_only(tmp_path: Path) -> None:
    data = notebook_bytes()
    source = opened(tmp_path, "nb.ipynb", data)
    fixed = source.program.replace("y = 2", "y = 3")
    assert source.changes(fixed) == {3: "x = 1\ny = 3"}
    new_text = source.fixed_text(fixed)
    assert new_text is not None and new_text == data.decode().replace('"y = 2"', '"y = 3"')
    assert "3 +1,2 @@" not in source.diff(fixed)
    assert source.diff(fixed).startswith(f"--- {source.name}:cell 3\n+++ {source.name}:cell 3\n")
    source.write(new_text)
    assert (tmp_path / "nb.ipynb").read_text() == new_text
    assert source.fixed_text(source.program) is None


def test_a_fix_that_moves_a_cell_boundary_is_refused(tmp_path: Path) -> None:
    source = opened(tmp_path, "nb.ipynb", notebook_bytes())
    boundary = next(line for line in source.program.splitlines() if "cell-boundary" in line)
    merged = source.program.replace(boundary + "\n", "")
    with pytest.raises(SourceError, match=r"nb\.ipynb: a fix moved a notebook cell boundary"):
        source.fixed_text(merged)
