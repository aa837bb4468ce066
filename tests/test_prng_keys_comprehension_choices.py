"""OPT020 on `jax.random.choice` drawing every item of a comprehension from one key with only its
probabilities changing (issue #25, held-out set 5: pennylane f22dd2d, `[jax.random.choice(key,
n, shape=(shots,), p=prob) for prob in state_probability]`: every broadcast row sampled from
the same uniforms, identical rows for equal probabilities). One key for `permutation`, `choice`
or `shuffle` over several arrays keeps them aligned on purpose (`[permutation(key, a) for a in
arrays]`), so what must change for that is the array a sampler orders, not its `p` or shape.
Run with JAX: rows of equal probabilities draw identical samples, and keys of their own do
not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

ROWS = '''\
import jax
import jax.numpy as jnp


def sample_rows(key, probabilities, shots):
    return jnp.array([jax.random.choice(key, 4, shape=(shots,), p=row)
                      for row in probabilities])
'''

KEY_PER_ROW = ROWS.replace(
    "for row in probabilities])",
    "for row, key in zip(probabilities, jax.random.split(key, len(probabilities)))])")

# One order for several arrays: aligned on purpose.
ALIGNED = '''\
import jax


def shuffled(key, arrays):
    return [jax.random.permutation(key, array) for array in arrays]


def picked(key, arrays, shots):
    return [jax.random.choice(key, array, shape=(shots,)) for array in arrays]
'''


def test_one_key_for_every_row_of_probabilities(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "device.py", ROWS) == [6]


@pytest.mark.parametrize("source", [KEY_PER_ROW, ALIGNED], ids=["key per row", "aligned"])
def test_keys_per_row_and_aligned_arrays_are_silent(tmp_path: Path, source: str) -> None:
    assert opt020_lines(tmp_path, "device.py", source) == []


def test_rows_of_equal_probabilities_draw_the_same_samples() -> None:
    pytest.importorskip("jax")
    import jax
    import jax.numpy as jnp

    probabilities = jnp.full((3, 4), 0.25)
    for source, same in ((ROWS, True), (KEY_PER_ROW, False)):
        namespace: dict[str, Any] = {}
        exec(compile(source, "device.py", "exec"), namespace)
        rows = namespace["sample_rows"](jax.random.key(0), probabilities, 16)
        assert bool((rows == rows[0]).all()) is same
