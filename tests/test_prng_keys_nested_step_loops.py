"""OPT020 on a key drawn from in a loop over items that a loop of steps runs on every step
(issue #25, held-out set 5: howaboutyu/nerf-jax 4b4fcaf, `key = PRNGKey(0)`, then `for epoch in
range(n): for idx, batch in enumerate(dataset): key_train = jax.random.split(key, n)`: every
step of every epoch drew the same ray samples). A loop over items alone may mean one key for
each (settings compared on one draw), but the loop of steps around it repeats the draw on every
step, where no reuse is meant. Beside the loop over items alone, which stays silent. Run with
JAX: every epoch's keys are the same."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

NESTED = '''\
import jax


def train(state, dataset, step, epochs):
    key = jax.random.PRNGKey(0)
    for epoch in range(epochs):
        for index, batch in enumerate(dataset):
            keys = jax.random.split(key, len(batch))
            state = step(state, keys, batch)
    return state
'''

ITEMS_ONLY = '''\
import jax


def compare(settings, key):
    for index, setting in enumerate(settings):
        keys = jax.random.split(key, 4)
        print(index, setting * keys.sum())
'''


# Each epoch splits a key of its own, then permutes the arrays alike with it (flowjax 19.1.2's
# `fit_to_data`).
FRESH_EACH_EPOCH = '''\
import jax


def shuffle(key, arrays, epochs):
    for _ in range(epochs):
        key, *subkeys = jax.random.split(key, 3)
        arrays = [jax.random.permutation(subkeys[0], a) for a in arrays]
    return arrays
'''


def test_a_split_in_a_loop_over_batches_inside_a_loop_of_epochs(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "train.py", NESTED) == [8]


def test_a_loop_over_items_alone_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "compare.py", ITEMS_ONLY) == []


def test_a_key_made_anew_on_every_step_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "shuffle.py", FRESH_EACH_EPOCH) == []


def test_every_epoch_gets_the_same_keys() -> None:
    pytest.importorskip("jax")
    import jax.numpy as jnp

    namespace: dict[str, Any] = {}
    exec(compile(NESTED, "train.py", "exec"), namespace)
    used: list[Any] = []
    namespace["train"](0, [jnp.ones(2)], lambda state, keys, batch: used.append(keys), 2)
    assert bool((used[0] == used[1]).all())
