"""OPT020's choices that fixtures cannot show: which files count as test code."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run_optlint_in_process as run_optlint
from optlint.rules.prng_key_reuse import is_test_code


@pytest.mark.parametrize(("filename", "expected"), [
    ("tests/test_model.py", True),
    ("pkg/tests/helpers.py", True),
    ("src/pkg/model_test.py", True),
    ("conftest.py", True),
    ("src/pkg/train.py", False),
    ("src/pkg/testing_utils.py", False),
    ("examples/contest.py", False),
])
def test_test_code(filename: str, expected: bool) -> None:
    assert is_test_code(filename) is expected


def _notebook(cells: list[str]) -> str:
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
        {"cell_type": "code", "id": str(i), "metadata": {}, "execution_count": None,
         "outputs": [], "source": source} for i, source in enumerate(cells)]})


def test_notebook_key_consumed_in_two_cells(tmp_path: Path) -> None:
    """Cells are one program in execution order: a key drawn from in one cell and again in a
    later one is a reuse, reported in the later cell."""
    (tmp_path / "train.ipynb").write_text(_notebook([
        "import jax.random as jr\nkey = jr.PRNGKey(0)\n",
        "w = jr.normal(key, (3, 3))\n",
        "noise = jr.normal(key, (3,))\n",
    ]))
    result = run_optlint("check", "train.ipynb", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    findings = json.loads(result.stdout)
    assert [f["code"] for f in findings] == ["OPT020"]
    assert findings[0]["cell"] == 3


def test_expected_failures_are_not_findings_for_any_rule(tmp_path: Path) -> None:
    """Code inside `with pytest.raises(...)` / `pytest.warns(...)` fails on purpose."""
    body = ("import optax\n"
            "opt = optax.chain(optax.adam(1e-3), optax.clip_by_global_norm(1.0))\n")
    inside = ("import optax\nimport pytest\n"
              "with pytest.raises(ValueError):\n"
              "    opt = optax.chain(optax.adam(1e-3), optax.clip_by_global_norm(1.0))\n"
              "with pytest.warns(UserWarning):\n"
              "    import jax.random as jr\n"
              "    key = jr.PRNGKey(0)\n"
              "    a = jr.normal(key, (2,))\n"
              "    b = jr.normal(key, (2,))\n")
    (tmp_path / "outside.py").write_text(body)
    (tmp_path / "inside.py").write_text(inside)
    result = run_optlint("check", "outside.py", "inside.py", "--select", "OPT008,OPT020",
                         "--no-cache", "--output-format", "json", cwd=tmp_path)
    assert [(f["filename"], f["code"]) for f in json.loads(result.stdout)] == [
        ("outside.py", "OPT008")]
