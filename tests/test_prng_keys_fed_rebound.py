"""OPT020 on draws that feed names bound anew before anything reads them (issue #25, jinns
2D_Navier_Stokes_PipeFlow_ngd.ipynb cell24: `x` and `y` drawn from one key build `obs_batch`,
which builds `obs_data`, which a later cell sets to `None` before any read). Inside a function or
a notebook, a name fed by a draw and then bound anew holds nothing of it, however often the body
reads that name elsewhere: the draw reaches no result. Where the fed name is read before it is
bound anew, the reuse is still found. Each case also runs with JAX: drawing `x` and `y` from
another key leaves the silent function's result unchanged and changes the found one's."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import opt020_lines

SOURCE = '''\
import jax
import jax.numpy as jnp


class Observations:
    def __init__(self, batch):
        self.batch = batch


def observations(key, keep):
    key, subkey = jax.random.split(key)
    x = jax.random.uniform(subkey, (5, 1))
    y = jax.random.uniform(subkey, (5, 1))
    batch = jnp.concatenate([x, y], axis=-1)
    data = Observations(batch)
    data = None
    return jnp.zeros(1) if data is None or not keep else data.batch


def observations_read(key, keep):
    key, subkey = jax.random.split(key)
    x = jax.random.uniform(subkey, (5, 1))
    y = jax.random.uniform(subkey, (5, 1))
    batch = jnp.concatenate([x, y], axis=-1)
    data = Observations(batch)
    kept = data.batch if keep else None
    data = None
    return kept
'''


def test_a_draw_feeding_names_bound_anew_is_no_draw(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "fed.py", SOURCE) == [23]


def test_the_cases_when_run(tmp_path: Path) -> None:
    (tmp_path / "fed.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "fed.py"))
    uniform = jax.random.uniform
    for name, changes in (("observations", False), ("observations_read", True)):
        function = namespace[name]
        written = np.asarray(function(jax.random.key(0), True))
        # Both draws made from another key: what reaches the result changes, if anything.
        function.__globals__["jax"] = _Jax(lambda _key, shape: uniform(jax.random.key(9), shape))
        try:
            moved = np.asarray(function(jax.random.key(0), True))
        finally:
            function.__globals__["jax"] = jax
        assert (not np.array_equal(written, moved)) == changes


class _Jax:
    """`jax` with `jax.random.uniform` replaced."""

    def __init__(self, uniform: object) -> None:
        self.random = _Random(uniform)


class _Random:
    def __init__(self, uniform: object) -> None:
        self.uniform = uniform
        self.split = jax.random.split
