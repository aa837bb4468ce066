"""Fixes that must never change what correct code means: where the added import goes, the
arguments a replacement takes, comments inside rewritten calls, odd line endings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reliability_helpers import run_cli
from stub_libraries import run_cells_with_stubs, run_with_stubs


def fixed(monkeypatch: pytest.MonkeyPatch, folder: Path, name: str, text: str,
          *options: str) -> str:
    path = folder / name
    path.write_bytes(text.encode("utf-8"))
    (folder / "pyproject.toml").write_text("[tool.optlint]\n")
    run = run_cli(monkeypatch, folder, "check", "--fix", "--jobs", "1", *options, name)
    assert "error" not in run.stderr, run.stderr
    return path.read_bytes().decode("utf-8")


def runs(folder: Path, name: str) -> None:
    done = run_with_stubs(folder / name)
    assert done.returncode == 0, done.stderr


LATER_IMPORT = """\
import jax
import optax
from equinox import nn

model = nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
opt_state = optax.adam(1e-3).init(model)
import os
print(os.sep)
"""
TYPE_CHECKING_ONLY = """\
from typing import TYPE_CHECKING

import jax
import optax
from equinox import nn

if TYPE_CHECKING:
    import equinox as eqx

model = nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
opt_state = optax.adam(1e-3).init(model)
"""
INSIDE_A_FUNCTION = """\
import jax
import optax
from equinox import nn


def save(model):
    import equinox as eqx
    eqx.tree_serialise_leaves("model.eqx", model)


model = nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
opt_state = optax.adam(1e-3).init(model)
"""


@pytest.mark.parametrize("text", [LATER_IMPORT, TYPE_CHECKING_ONLY, INSIDE_A_FUNCTION],
                         ids=["later-import", "type-checking", "inside-a-function"])
def test_the_equinox_name_is_bound_where_the_fix_uses_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    result = fixed(monkeypatch, tmp_path, "train.py", text)
    assert "eqx.filter(model, eqx.is_array)" in result
    runs(tmp_path, "train.py")


def notebook(cells: list[str]) -> str:
    return json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
                                  "execution_count": None, "source": cell} for cell in cells],
                       "metadata": {"language_info": {"name": "python"}}, "nbformat": 4,
                       "nbformat_minor": 5}, indent=1)


def test_a_notebook_gets_the_import_no_later_than_the_cell_that_uses_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cells = ["import jax\nimport optax\nfrom equinox import nn",
             "model = nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))\n"
             "opt_state = optax.adam(1e-3).init(model)",
             "import os\nprint(os.sep)"]
    result = json.loads(fixed(monkeypatch, tmp_path, "train.ipynb", notebook(cells)))
    sources = ["".join(cell["source"]) for cell in result["cells"]]
    assert "eqx.filter(model, eqx.is_array)" in sources[1]
    done = run_cells_with_stubs(sources, tmp_path)
    assert done.returncode == 0, done.stderr
