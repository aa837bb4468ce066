"""OPT020 on a call that ends a notebook cell: Jupyter shows its value (the cell's output), so
its result is read, not thrown away as a warm-up's is. learned_optimization's
no_dependency_learned_optimizer notebook, cell 25: `meta_loss(meta_params, key, batches)` of a
`jax.jit` function, its loss the cell's output, from the key cell 23 drew with (TP by run).
Followed by `;` the cell shows nothing and the call is a warm-up again (evojax's
`run_sim(key, ...);`); in a Python file a last statement shows nothing either."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import opt020_findings
from test_prng_keys_myst_unread import ipynb, myst

DEFINE = ("import jax\n\n\n@jax.jit\ndef loss(key):\n"
          "    return jax.random.normal(key, (3,)).mean()\n\n\nkey = jax.random.PRNGKey(0)\n")
KEPT = "first = loss(key)\nprint(first)\n"


def _found(tmp_path: Path, kind: str, cells: list[str]) -> list[dict]:
    if kind == "ipynb":
        return opt020_findings(tmp_path, "demo.ipynb", ipynb(cells))
    return opt020_findings(tmp_path, "demo.md", myst(cells))


@pytest.mark.parametrize("kind", ["ipynb", "md"])
def test_a_call_ending_a_cell_is_shown_so_its_draw_is_read(tmp_path: Path, kind: str) -> None:
    shown_last = _found(tmp_path, kind, [DEFINE, KEPT, "loss(key)\n"])
    assert len(shown_last) == 1 and "loss" in shown_last[0]["message"]
    shown_first = _found(tmp_path, kind, [DEFINE, "loss(key)\n", KEPT])
    assert len(shown_first) == 1


@pytest.mark.parametrize("kind", ["ipynb", "md"])
def test_a_semicolon_keeps_the_cell_quiet(tmp_path: Path, kind: str) -> None:
    assert _found(tmp_path, kind, [DEFINE, KEPT, "loss(key);\n"]) == []
    assert _found(tmp_path, kind, [DEFINE, "loss(key);  # warm-up\n", KEPT]) == []


@pytest.mark.parametrize("kind", ["ipynb", "md"])
def test_a_call_inside_a_cell_shows_nothing(tmp_path: Path, kind: str) -> None:
    assert _found(tmp_path, kind, [DEFINE, KEPT, "loss(key)\nx = 1\n"]) == []


def test_a_python_file_shows_nothing(tmp_path: Path) -> None:
    source = DEFINE + KEPT + "loss(key)\n"
    assert opt020_findings(tmp_path, "demo.py", source) == []
