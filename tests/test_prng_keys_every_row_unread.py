"""OPT020 on a key drawn from alike in every row of a `vmap` whose result reaches nothing
(issue #25, vizier stochastic_process_model_test.py:328: `s = jax.jit(jax.vmap(lambda s:
model.apply(...).sample(seed=prior_key)))(state)`, `s` read only by `assertEqual(s.shape, ...)`).
Every row draws the same numbers, but no value of theirs reaches a result, so there is no
reuse by the rule; where the rows' values are returned the finding stays. Each case also runs:
the rows are identical, and the checked function gives the same result under another key."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import opt020_lines

SOURCE = '''\
import jax


def noisy(x, key):
    return x + jax.random.normal(key, x.shape)


def closed_checked(xs, key):
    s = jax.jit(jax.vmap(lambda x: noisy(x, key)))(xs)
    assert s.shape == xs.shape
    return xs * 2.0


def broadcast_checked(xs, key):
    s = jax.vmap(noisy, in_axes=(0, None))(xs, key)
    assert s.shape == xs.shape
    return xs * 2.0


def closed_kept(xs, key):
    s = jax.vmap(lambda x: noisy(x, key))(xs)
    return s


def broadcast_kept(xs, key):
    return jax.vmap(noisy, in_axes=(0, None))(xs, key)
'''


def test_rows_drawn_alike_reaching_nothing_are_no_reuse(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "rows.py", SOURCE) == [21, 26]


def test_the_cases_when_run(tmp_path: Path) -> None:
    (tmp_path / "rows.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "rows.py"))
    xs = np.zeros((3, 2), dtype=np.float32)
    key, other = jax.random.key(0), jax.random.key(5)
    for name in ("closed_kept", "broadcast_kept"):
        rows = np.asarray(namespace[name](xs, key))
        assert all(np.array_equal(rows[0], row) for row in rows)  # one draw in every row
    for name in ("closed_checked", "broadcast_checked"):
        assert np.array_equal(namespace[name](xs, key), namespace[name](xs, other))
