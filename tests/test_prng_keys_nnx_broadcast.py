"""OPT020 on Flax NNX's `Rngs` broadcast by `nnx.vmap` (issue #25, class 3): given a `None`
axis, every row draws the same keys from it (the same noise, the same weights for every member
of an ensemble). An `Rngs` split per row (`nnx.split_rngs`, `in_axes=0`), or one the mapped
function never draws from, stays silent. Checked by the real command line; the broadcast is
run with Flax where it is installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import opt020_lines

BROADCAST = '''\
import jax
import jax.numpy as jnp
from flax import nnx


def noisy(rngs, x):
    return x + jax.random.normal(rngs.noise(), x.shape)


def broadcast(xs):
    rngs = nnx.Rngs(noise=0)
    return nnx.vmap(noisy, in_axes=(None, 0))(rngs, xs)


def ensemble(rngs: nnx.Rngs):
    return nnx.vmap(lambda r: nnx.Linear(3, 1, rngs=r), in_axes=None, axis_size=4)(rngs)


@nnx.split_rngs(splits=4)
def split_first(rngs: nnx.Rngs):
    return nnx.vmap(lambda r: nnx.Linear(3, 1, rngs=r), in_axes=0)(rngs)


def no_draw(xs):
    rngs = nnx.Rngs(noise=0)
    return nnx.vmap(lambda r, x: x * 2, in_axes=(None, 0))(rngs, xs)
'''


def test_a_broadcast_rngs_drawn_in_every_row(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "ens.py", BROADCAST) == [12, 16]


def test_rows_are_the_same_under_flax() -> None:
    pytest.importorskip("flax")
    import jax.numpy as jnp

    namespace: dict = {"__name__": "program"}
    exec(compile(BROADCAST, "program.py", "exec"), namespace)
    rows = namespace["broadcast"](jnp.zeros((3, 2)))
    assert bool((rows == rows[0]).all())
    kernels = namespace["ensemble"](namespace["nnx"].Rngs(0)).kernel[...]
    assert bool((kernels == kernels[0]).all())
    split = namespace["split_first"](namespace["nnx"].Rngs(0)).kernel[...]
    assert not bool((split == split[0]).all())
