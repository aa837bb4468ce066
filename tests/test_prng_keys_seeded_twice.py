"""OPT020 on two keys made from one literal seed: JAX's key-reuse checker sees two keys, so the
pair is a reuse only where it gives identical values. Two draws (or two splits) alike do; a
draw from one and a split of the other give correlated values, never identical ones: that
finding goes to `--preview` with the reason. Both programs also run with JAX."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import opt020_findings

SEEDED = '''\
import jax


def drawn_twice():
    key = jax.random.PRNGKey(0)
    first = jax.random.normal(key, (4,))
    key = jax.random.PRNGKey(0)
    second = jax.random.normal(key, (4,))
    return first, second


def drawn_then_split():
    key = jax.random.PRNGKey(0)
    first = jax.random.normal(key, (4,))
    key = jax.random.PRNGKey(0)
    key, sub = jax.random.split(key)
    return first, jax.random.normal(sub, (4,)), jax.random.normal(key, (4,))
'''


def _findings(tmp_path: Path, *extra: str) -> list[dict]:
    return opt020_findings(tmp_path, "seeded.py", SEEDED, *extra)


def _row(finding: dict) -> int:
    return finding["location"]["row"] if "location" in finding else finding["line"]


def test_a_draw_and_a_split_of_one_seed_are_preview(tmp_path: Path) -> None:
    assert [_row(f) for f in _findings(tmp_path)] == [8]
    preview = {_row(f): f["message"] for f in _findings(tmp_path, "--preview")}
    assert sorted(preview) == [8, 16]
    assert "[preview: the key is made from the seed twice" in preview[16]


def test_seeded_twice_when_run(tmp_path: Path) -> None:
    (tmp_path / "seeded.py").write_text(SEEDED)
    namespace = runpy.run_path(str(tmp_path / "seeded.py"))
    first, second = namespace["drawn_twice"]()
    assert np.array_equal(first, second)  # identical values: a reuse
    first, *later = namespace["drawn_then_split"]()
    assert not any(np.isin(np.asarray(first), np.asarray(draw)).any() for draw in later)
    with jax.debug_key_reuse(True):  # two key objects: the checker stays silent
        namespace["drawn_then_split"]()
