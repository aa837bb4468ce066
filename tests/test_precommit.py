"""The pre-commit hooks through real pre-commit, in a temporary git repository whose
.pre-commit-config.yaml points at this checkout (`repo:` its path, `rev:` its HEAD commit).

pre-commit installs the hooks from the committed HEAD into its own virtual environment (pip,
from PyPI), so hook changes must be committed before this test sees them. The environment is
built once for the module, in a temporary PRE_COMMIT_HOME.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import REPO
from myst_notebooks import TRAINING

TRAIN = textwrap.dedent("""\
    import equinox as eqx
    import jax
    import optax

    model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
    optimizer = optax.adam(1e-3)
    opt_state = optimizer.init(model)
""")
FIXED_LINE = "opt_state = optimizer.init(eqx.filter(model, eqx.is_array))"
README = "# Training\n\n```python\nopt_state = optimizer.init(model)\n```\n"
NOTEBOOK = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "a", "metadata": {},
               "outputs": [], "source": TRAIN.splitlines(keepends=True)}],
    "metadata": {"language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5,
}


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    _git("init", "-q", cwd=tmp_path)
    (tmp_path / ".pre-commit-config.yaml").write_text(textwrap.dedent(f"""\
        repos:
          - repo: {REPO}
            rev: {_git("rev-parse", "HEAD", cwd=REPO)}
            hooks:
              - id: optlint
              - id: optlint-fix
        """))
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "clean.py").write_text("import optax\n\noptimizer = optax.adam(1e-3)\n")
    (tmp_path / "explore.ipynb").write_text(json.dumps(NOTEBOOK, indent=1) + "\n")
    (tmp_path / "notes.txt").write_text("optimizer.init(model) is not python\n")
    (tmp_path / "guide.md").write_text(TRAINING)  # a MyST notebook: OPT003 at cell 6, line 2
    (tmp_path / "README.md").write_text(README)
    _git("add", ".", cwd=tmp_path)
    return tmp_path


def pre_commit(hook: str, project: Path, home: Path,
               *files: str) -> subprocess.CompletedProcess[str]:
    """The hook on every file of the repository, or on `files` (with `--verbose`: pre-commit
    shows a passing hook's output then)."""
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    which = ["--files", *files, "--verbose"] if files else ["--all-files"]
    return subprocess.run([sys.executable, "-m", "pre_commit", "run", hook, *which],
                          cwd=project, env=env, text=True, capture_output=True, timeout=600,
                          check=False)


def test_check_hook_fails_and_shows_the_findings(project: Path, pre_commit_home: Path) -> None:
    result = pre_commit("optlint", project, pre_commit_home)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "train.py:7:28: OPT003" in output
    assert "explore.ipynb:cell 1:7:28: OPT003" in output
    assert "guide.md:cell 6:2:28: OPT003" in output
    assert "clean.py" not in output and "notes.txt" not in output
    assert "README" not in output  # a `.md` that is no notebook is left out, quietly
    assert (project / "train.py").read_text() == TRAIN  # the check hook changes nothing


def test_hook_environment_has_no_jax_optax_or_equinox(project: Path,
                                                      pre_commit_home: Path) -> None:
    assert pre_commit("optlint", project, pre_commit_home).returncode == 1
    # One environment per HEAD commit the module's tests met (others may commit meanwhile).
    pythons = list(pre_commit_home.glob("repo*/py_env-*/bin/python"))
    assert pythons
    probe = ("import importlib.util as u, optlint; "
             "print([m for m in ('jax', 'optax', 'equinox') if u.find_spec(m)])")
    for python in pythons:
        found = subprocess.run([str(python), "-c", probe], capture_output=True, text=True,
                               check=True)
        assert found.stdout.strip() == "[]"


def test_fix_hook_rewrites_and_fails_then_passes(project: Path, pre_commit_home: Path) -> None:
    first = pre_commit("optlint-fix", project, pre_commit_home)
    assert first.returncode == 1, first.stdout + first.stderr
    assert "files were modified by this hook" in first.stdout
    # The findings are the check hook's to show: with both hooks, each shows once.
    assert "OPT003" not in first.stdout + first.stderr
    assert FIXED_LINE in (project / "train.py").read_text()
    notebook = json.loads((project / "explore.ipynb").read_text())
    assert FIXED_LINE + "\n" in notebook["cells"][0]["source"]

    _git("add", ".", cwd=project)  # as the user does after looking at the change
    for hook in ("optlint-fix", "optlint"):
        again = pre_commit(hook, project, pre_commit_home)
        assert again.returncode == 0, again.stdout + again.stderr


def test_one_summary_for_all_the_files(project: Path, pre_commit_home: Path) -> None:
    """Without `require_serial`, pre-commit splits the files into one batch per core and runs
    the hook once per batch, each printing its own summary (two here, on two cores)."""
    for number in range(8):
        (project / f"more_{number}.py").write_text(TRAIN)
    _git("add", ".", cwd=project)
    result = pre_commit("optlint", project, pre_commit_home)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert output.count("Found ") == 1, output
    assert "Found 11 problems" in output  # train.py, the two notebooks and the eight more


def test_a_plain_markdown_file_passes_quietly(project: Path, pre_commit_home: Path) -> None:
    """pre-commit passes every staged `.md` (`types_or: markdown`): a README is no notebook."""
    for hook in ("optlint", "optlint-fix"):
        result = pre_commit(hook, project, pre_commit_home, "README.md")
        output = result.stdout + result.stderr
        assert result.returncode == 0, output
        assert "README" not in output and "note:" not in output and "OPT" not in output
    assert (project / "README.md").read_text() == README


def test_fix_hook_fixes_a_myst_notebook_in_its_lines(project: Path,
                                                     pre_commit_home: Path) -> None:
    result = pre_commit("optlint-fix", project, pre_commit_home, "guide.md")
    assert result.returncode == 1, result.stdout + result.stderr
    fixed = TRAINING.replace("opt_state = optimizer.init(model)\n", FIXED_LINE + "\n")
    assert (project / "guide.md").read_text() == fixed
