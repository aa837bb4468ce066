"""OPT020 on keyword arguments of a batched call: `jax.vmap` and `jax.pmap` map an argument
given by keyword over its leading axis whatever `in_axes` says (`in_axes` speaks of the
positional ones; `eqx.filter_vmap`, `eqx.filter_pmap` and `jax.shard_map` refuse keywords,
jax 0.10.2, equinox of the bench venv). A batch of keys so given gives each row its own key;
the same keys given by position with `in_axes=None` reach every row. Run with JAX's key-reuse
checker."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines, raises_key_reuse

PROGRAM = '''\
import jax
import jax.random as jr


def noisy(x, k):
    return x + jr.normal(k, (3,))


def rows(key, x):
    keys = jr.split(key, 4)
    return jax.vmap(noisy, in_axes=None)(x, k=keys)
'''
BROADCAST = PROGRAM.replace("(x, k=keys)", "(x, keys)")
RUN = "rows(jax.random.key(0), jax.numpy.zeros(3))"


def test_keys_given_by_keyword_are_mapped_whatever_in_axes_says(tmp_path: Path) -> None:
    assert not raises_key_reuse(PROGRAM, RUN)
    assert opt020_lines(tmp_path, "rows.py", PROGRAM, "--preview") == []


def test_the_same_keys_given_by_position_reach_every_row(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "rows.py", BROADCAST) == [11]
