"""A notebook finding's roles say their own cell (issue #25: a finding carries the key's path, and
in a notebook the key is often made in one cell and drawn from in others). Checked through the
real CLI, and read back from the cache."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_optlint_in_process as run_optlint
from test_notebooks import code, notebook, write

MADE = ["import jax\n", "key = jax.random.PRNGKey(0)"]
FIRST = ["noise = jax.random.normal(key, (3,))"]
SECOND = ["other = jax.random.uniform(key, (3,))\n", "print(noise + other)"]


def _roles(folder: Path, *extra: str) -> tuple[int, dict[str, dict[str, int]]]:
    result = run_optlint("check", "nb.ipynb", "--select", "OPT020", "--output-format", "json",
                         *extra, cwd=folder)
    [record] = json.loads(result.stdout)
    return record["cell"], record["roles"]


def test_roles_name_the_cell_they_are_in(tmp_path: Path) -> None:
    write(tmp_path, notebook(code(MADE, 1), code(FIRST, 2), code(SECOND, 3)))
    cell, roles = _roles(tmp_path, "--no-cache")
    assert cell == 3
    assert (roles["call"]["cell"], roles["call"]["line"]) == (3, 1)
    assert (roles["first_call"]["cell"], roles["first_call"]["line"]) == (2, 1)
    assert (roles["key_origin"]["cell"], roles["key_origin"]["line"]) == (1, 2)


def test_role_cells_survive_the_cache(tmp_path: Path) -> None:
    write(tmp_path, notebook(code(MADE, 1), code(FIRST, 2), code(SECOND, 3)))
    assert _roles(tmp_path) == _roles(tmp_path)  # the second run reads the cache


def test_a_python_file_s_roles_have_no_cell(tmp_path: Path) -> None:
    (tmp_path / "nb.py").write_text("".join(MADE) + "\n" + FIRST[0] + "\n" + "".join(SECOND))
    result = run_optlint("check", "nb.py", "--select", "OPT020", "--output-format", "json",
                         "--no-cache", cwd=tmp_path)
    [record] = json.loads(result.stdout)
    assert all("cell" not in role for role in record["roles"].values())
