"""OPT020 on a class making its key from a seed parameter folded with another parameter,
`self.key = fold_in(key(seed), device)` (issue #25, seen on held-out set 6's elodin 1885c9bd9,
whose `Noise(0, 0, ...)`, `Noise(0, 1, ...)`, `Noise(0, 2, ...)` were reported as one seed used
three times, before and after the row's fix). Built with one seed and different data, the keys
differ; built twice with the same seed and data, they are one key (found). Run with JAX: the
first two sensors' noise differs, the last two sensors' noise is the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

NOISE = '''\
import jax
import jax.random as rng


class Noise:
    def __init__(self, seed, device, scale):
        self.scale = scale
        self.key = rng.fold_in(rng.key(seed), device)

    def sample(self, m, tick):
        key = rng.fold_in(self.key, tick)
        return m + self.scale * rng.normal(key, m.shape)


gyro = Noise(0, 0, 1e-3)
accel = Noise(0, 1, 1e-3)
baro = Noise(0, 1, 1e-2)
'''


def test_one_seed_folded_with_other_data_is_two_keys(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sensors.py", NOISE) == [17]


def test_the_first_two_differ_and_the_last_two_agree() -> None:
    pytest.importorskip("jax")
    import jax.numpy as jnp

    namespace: dict[str, Any] = {}
    exec(compile(NOISE, "sensors.py", "exec"), namespace)
    zeros = jnp.zeros(3)
    gyro, accel, baro = (namespace[name].sample(zeros, 0) for name in ("gyro", "accel", "baro"))
    assert not bool((gyro / 1e-3 == accel / 1e-3).all())
    assert bool(jnp.allclose(accel / 1e-3, baro / 1e-2))
