"""OPT020 on data reordered with one key on every step of a loop that counts (issue #25,
held-out set 5: a2c-jax 99eeca2, `for epoch in range(epochs): batches = get_batches(data,
size, prngkey)`, `get_batches` permuting every array with the key: every epoch ran the same
batches in the same order). One key for `permutation`/`shuffle` over several arrays keeps them
aligned on purpose, and a helper drawing from one key on every step is often an evaluation
meant to see the same draw; neither holds for one permutation repeated each epoch, made in
place or by a helper that hands the key straight to the permutation. Beside look-alikes that
stay silent: arrays of the loop permuted alike, a helper evaluating on a fixed key. Run with
JAX: every epoch's order is the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

IN_PLACE = '''\
import jax


def train(state, data, key, epochs):
    for epoch in range(epochs):
        order = jax.random.permutation(key, data.shape[0])
        for index in order:
            state = state + data[index]
    return state
'''

HELPER = '''\
import jax


def get_batches(data, batch_size, key):
    data = {name: jax.random.permutation(key, array) for name, array in data.items()}
    rows = len(data["x"])
    return [{name: array[i:i + batch_size] for name, array in data.items()}
            for i in range(0, rows, batch_size)]


def train(state, data, key, epochs):
    orders = []
    for epoch in range(epochs):
        for batch in get_batches(data, 4, key):
            state = state + batch["x"].sum()
            orders.append(batch["x"])
    return state, orders
'''

# Arrays permuted alike on purpose: in a comprehension over them, and in every epoch with a
# key of its own.
ALIGNED = '''\
import jax


def permuted(key, arrays):
    return [jax.random.permutation(key, array) for array in arrays]


def shuffled(key, x, y, epochs):
    for epoch in range(epochs):
        key, sub = jax.random.split(key)
        x, y = jax.random.permutation(sub, x), jax.random.permutation(sub, y)
    return x, y
'''

# A helper evaluating with one key on every step: a fixed draw on purpose.
EVALUATION = '''\
import jax


def evaluate(params, key):
    return (params * jax.random.normal(key, params.shape)).sum()


def train(params, key, steps):
    for step in range(steps):
        params = params * 0.9
        print(evaluate(params, key))
    return params
'''


def test_one_permutation_on_every_epoch(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "train.py", IN_PLACE) == [6]


def test_a_helper_permuting_with_the_key_of_every_epoch(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "train.py", HELPER) == [14]


@pytest.mark.parametrize("source", [ALIGNED, EVALUATION], ids=["aligned", "evaluation"])
def test_aligned_arrays_and_evaluations_are_silent(tmp_path: Path, source: str) -> None:
    assert opt020_lines(tmp_path, "train.py", source) == []


def test_every_epoch_runs_the_same_batches() -> None:
    pytest.importorskip("jax")
    import jax
    import jax.numpy as jnp

    namespace: dict[str, Any] = {}
    exec(compile(HELPER, "train.py", "exec"), namespace)
    data = {"x": jnp.arange(8.0), "y": jnp.arange(8.0)}
    _, orders = namespace["train"](0.0, data, jax.random.key(0), 2)
    assert all(bool((first == second).all()) for first, second in zip(orders[:2], orders[2:]))
