"""OPT020 on a lambda a batching transformation maps, given one key for every row (issue #25,
held-out set 5: jaxsim df81dfa, `jax.vmap(lambda key: random_model_data(model=model,
key=key))(jnp.repeat(key[None, :], repeats=batch_size, axis=0))`: every batch element got the
same random model data). A `def` mapped so was already followed; a lambda's parameters are
bound to the rows' arguments the same way: a key replicated or broadcast (`in_axes=None`) is
drawn from in every row, a batch of keys once. Beside a lambda given a key per row, which
stays silent. Run with JAX: every row draws the same numbers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

REPEATED = '''\
import jax
import jax.numpy as jnp


def random_data(scale, key):
    first, second = jax.random.split(key)
    return scale * jax.random.uniform(first, (3,)) + jax.random.normal(second, (3,))


def batch(scale, batch_size):
    key = jax.random.PRNGKey(0)
    return jax.vmap(lambda key: random_data(scale, key=key))(
        jnp.repeat(key[None, :], repeats=batch_size, axis=0))
'''

BROADCAST = '''\
import jax


def noisy(xs, key):
    return jax.vmap(lambda x, k: x + jax.random.normal(k, x.shape), in_axes=(0, None))(xs, key)
'''

KEY_PER_ROW = REPEATED.replace("jnp.repeat(key[None, :], repeats=batch_size, axis=0))",
                               "jax.random.split(key, batch_size))")


def test_a_key_repeated_into_every_row_of_a_mapped_lambda(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "bench.py", REPEATED) == [12]


def test_a_key_broadcast_to_a_mapped_lambda(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "noise.py", BROADCAST) == [5]


def test_a_key_per_row_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "bench.py", KEY_PER_ROW) == []


def test_every_row_draws_the_same_data() -> None:
    pytest.importorskip("jax")
    for source, same in ((REPEATED, True), (KEY_PER_ROW, False)):
        namespace: dict[str, Any] = {}
        exec(compile(source, "bench.py", "exec"), namespace)
        rows = namespace["batch"](2.0, 4)
        assert bool((rows == rows[0]).all()) is same
