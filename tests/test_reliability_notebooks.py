"""Notebooks that are valid but unusual: a duplicate "cells" key (the last one is the notebook,
as every JSON reader takes it), line separators that are not line breaks for Python (U+2028 in
a string, a form feed before `!=`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reliability_helpers import FIXABLE, FIXED_LINE, run_cli


def code_cell(source: str) -> str:
    return json.dumps({"cell_type": "code", "metadata": {}, "outputs": [],
                       "execution_count": None, "source": source})


def test_fix_writes_into_the_cells_that_were_analysed(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    shadowed = code_cell("print('shadowed')\n")
    live = code_cell(FIXABLE)
    raw = (f'{{"cells": [{shadowed}], "metadata": {{}}, "nbformat": 4, "nbformat_minor": 5, '
           f'"cells": [{live}]}}')
    path = tmp_path / "nb.ipynb"
    path.write_text(raw)
    run = run_cli(monkeypatch, tmp_path, "check", "--fix", "--jobs", "1", "nb.ipynb")
    assert run.exit_code == 0, run.stdout + run.stderr
    fixed = json.loads(path.read_text())  # the last "cells"
    assert FIXED_LINE in "".join(fixed["cells"][0]["source"])
    assert "shadowed" in path.read_text()
    again = run_cli(monkeypatch, tmp_path, "check", "--no-cache", "--jobs", "1", "nb.ipynb")
    assert again.exit_code == 0, again.stdout


@pytest.mark.parametrize("line", ['label = "a\u2028!b"\n', "same = 1 \f!= 2\n",
                                  'label = "a\u2028%b"\n', "other = 'a\x1c!b'\n"],
                         ids=["u2028-shell", "form-feed", "u2028-magic", "file-separator"])
def test_a_line_separator_that_python_does_not_break_at(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, line: str) -> None:
    raw = json.dumps({"cells": [json.loads(code_cell(line + FIXABLE))], "metadata": {},
                      "nbformat": 4, "nbformat_minor": 5})
    (tmp_path / "nb.ipynb").write_text(raw)
    run = run_cli(monkeypatch, tmp_path, "check", "--no-cache", "--jobs", "1",
                  "--output-format", "json", "nb.ipynb")
    assert [finding["code"] for finding in json.loads(run.stdout)] == ["OPT003"], run.stderr
