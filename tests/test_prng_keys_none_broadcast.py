"""OPT020 on `None` broadcast to every row of a `vmap` in place of a key (issue #25, flashbax
sum_tree.py:210: `jax.vmap(sample, in_axes=(None, None, 0))(state, None, values)`, where
`sample` draws from its key only when it is given no value). `None` holds no key: a draw from
the parameter as given raises, so no row draws from it. A key broadcast so is still reported.
Both cases also run with JAX."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import pytest

from conftest import opt020_lines

SOURCE = '''\
import jax
import jax.numpy as jnp


def sample(scale, key=None, value=None):
    if value is None:
        if key is None:
            raise ValueError("a key or a value")
        value = jax.random.uniform(key, ())
    return scale * value


def given_values(scale, values):
    return jax.vmap(sample, in_axes=(None, None, 0))(scale, None, values)


def given_a_key(scale, key, n):
    scales = jnp.ones(n) * scale
    return jax.vmap(sample, in_axes=(0, None))(scales, key)
'''


def test_none_broadcast_in_place_of_a_key_is_no_draw(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "rows.py", SOURCE) == [19]


def test_the_cases_when_run(tmp_path: Path) -> None:
    (tmp_path / "rows.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "rows.py"))
    values = jax.numpy.arange(3.0)
    assert namespace["given_values"](2.0, values).tolist() == [0.0, 2.0, 4.0]
    rows = namespace["given_a_key"](1.0, jax.random.key(0), 3)
    assert len(set(rows.tolist())) == 1  # every row the same draw
    with pytest.raises(TypeError):  # `None` is no key: a draw from it raises
        jax.random.uniform(None, ())
