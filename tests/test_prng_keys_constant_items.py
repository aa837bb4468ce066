"""OPT020 on a comprehension permuting the same thing with one key for every item (issue #25,
held-out set 4, rebayes 154023f: `[jr.permutation(key, jnp.arange(28*28)) for _ in
range(n_tasks-1)]` gave every permuted-MNIST task the same pixel order). Permuting several arrays
with one key keeps them aligned on purpose and stays silent; here nothing but the key is given,
so every item is the same draw. Run with real JAX: every task's permutation is identical."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

TASKS = '''\
import jax
import jax.numpy as jnp


def permuted_tasks(n_tasks, key):
    return jnp.stack([jax.random.permutation(key, jnp.arange(16)) for _ in range(n_tasks)])
'''

# One order for several arrays: aligned on purpose.
ALIGNED = TASKS.replace(
    "def permuted_tasks(n_tasks, key):\n"
    "    return jnp.stack([jax.random.permutation(key, jnp.arange(16)) for _ in range(n_tasks)])",
    "def shuffled(arrays, key):\n"
    "    return [jax.random.permutation(key, array) for array in arrays]")

# The same, through each array's length.
ALIGNED_BY_LENGTH = ALIGNED.replace("jax.random.permutation(key, array)",
                                    "array[jax.random.permutation(key, array.shape[0])]")


def test_one_key_permutes_the_same_range_for_every_task(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "tasks.py", TASKS) == [6]


@pytest.mark.parametrize("source", [ALIGNED, ALIGNED_BY_LENGTH], ids=["arrays", "lengths"])
def test_arrays_permuted_alike_are_silent(tmp_path: Path, source: str) -> None:
    assert opt020_lines(tmp_path, "tasks.py", source) == []


def test_every_task_gets_the_same_permutation() -> None:
    pytest.importorskip("jax")
    import jax

    namespace: dict[str, Any] = {}
    exec(compile(TASKS, "tasks.py", "exec"), namespace)
    orders = namespace["permuted_tasks"](4, jax.random.key(0))
    assert orders.shape == (4, 16)
    assert bool((orders == orders[0]).all())
