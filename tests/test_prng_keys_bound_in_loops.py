"""OPT020 on a draw whose names a later loop or branch binds anew before reading them, on every
path into it (issue #25; Mava `ff_ippo_store_experience.py`: `eval_keys = split(key_e, n)`, then a
training loop whose evaluation starts with `key_e, *eval_keys = split(key_e, n + 1)`, and an
`if` after it that does the same). The first draw reaches nothing: the loop's reads see the loop's
own keys. Where some path reads the first draw's keys before binding them anew, the reuse of
`key_e` is still found. Both run with JAX: drawing the first `eval_keys` from another key leaves
the silent function's result unchanged and changes the found one's."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import opt020_lines

SOURCE = '''\
import jax
import jax.numpy as jnp


def evaluate(keys):
    return jnp.sum(jax.vmap(lambda k: jax.random.normal(k, ()))(keys))


def run(key, steps, final):
    key, key_e = jax.random.split(key)
    eval_keys = jax.random.split(key_e, 2)
    total = jnp.zeros(())
    for _ in range(steps):
        key_e, *eval_keys = jax.random.split(key_e, 3)
        eval_keys = jnp.stack(eval_keys)
        total = total + evaluate(eval_keys)
    if final:
        key_e, *eval_keys = jax.random.split(key_e, 3)
        total = total + evaluate(jnp.stack(eval_keys))
    return total


def run_read(key, steps, final):
    key, key_e = jax.random.split(key)
    eval_keys = jax.random.split(key_e, 2)
    total = jnp.zeros(())
    for step in range(steps):
        if step == 0:
            total = total + evaluate(eval_keys)
        key_e, *eval_keys = jax.random.split(key_e, 3)
        eval_keys = jnp.stack(eval_keys)
        total = total + evaluate(eval_keys)
    return total
'''
FIRST_DRAW = "eval_keys = jax.random.split(key_e, 2)"


def test_a_draw_bound_anew_by_a_loop_before_any_read_is_no_draw(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "loops.py", SOURCE) == [30]


def test_the_cases_when_run(tmp_path: Path) -> None:
    moved = SOURCE.replace(FIRST_DRAW, "eval_keys = jax.random.split(jax.random.key(9), 2)")
    (tmp_path / "written.py").write_text(SOURCE)
    (tmp_path / "moved.py").write_text(moved)
    written = runpy.run_path(str(tmp_path / "written.py"))
    other = runpy.run_path(str(tmp_path / "moved.py"))
    for name, changes in (("run", False), ("run_read", True)):
        for final in (False, True):
            before = np.asarray(written[name](jax.random.key(0), 3, final))
            after = np.asarray(other[name](jax.random.key(0), 3, final))
            assert (not np.array_equal(before, after)) == changes
