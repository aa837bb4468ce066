"""OPT020 through a loop over a mapping's own keys that reuses the key's name (issue #25, loop;
MultiNet e170d5c): `for key in batch: batch[key] = batch[key][:n]` truncates the last batch and
binds `key` to the batch's field names, never to a PRNG key, so the `key` every batch samples
with stays the one the caller gave. Silent when the inner loop may bind a key (it reads the
name otherwise), and in the fix (split per batch, the inner loop renamed). Checked by the real
command line and run with JAX: the same noise for both batches, then different noise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

PROGRAM = '''\
import jax
import numpy as np


class Policy:
    def sample_actions(self, rng, obs):
        return obs + jax.random.normal(rng, obs.shape)


def evaluate(policy, key, batches, limit=None):
    predictions = []
    for batch in batches:
        if limit is not None and len(batch["obs"]) > limit:
            for key in batch:
                batch[key] = batch[key][:limit]
        actions = policy.sample_actions(key, batch["obs"])
        predictions.append(actions)
    return predictions


def main():
    batches = [{"obs": np.zeros(2)}, {"obs": np.zeros(2)}]
    return evaluate(Policy(), jax.random.key(0), batches, limit=5)
'''

# The inner loop hands its item to something else: what it binds is not told.
OTHER_USE = PROGRAM.replace(
    "                batch[key] = batch[key][:limit]\n",
    "                batch[key] = batch[key][:limit]\n"
    "                print(key)\n")

FIXED = PROGRAM.replace(
    "            for key in batch:\n"
    "                batch[key] = batch[key][:limit]\n"
    "        actions = policy.sample_actions(key, batch[\"obs\"])\n",
    "            for feature in batch:\n"
    "                batch[feature] = batch[feature][:limit]\n"
    "        key, subkey = jax.random.split(key)\n"
    "        actions = policy.sample_actions(subkey, batch[\"obs\"])\n")


def _predictions(source: str) -> list[Any]:
    pytest.importorskip("jax")
    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    return namespace["main"]()


def test_a_key_kept_across_a_loop_over_the_batch_fields(tmp_path: Path) -> None:
    first, second = _predictions(PROGRAM)
    assert (first == second).all()
    assert opt020_lines(tmp_path, "evaluate.py", PROGRAM) == [16]


def test_an_inner_loop_using_its_item_otherwise_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "evaluate.py", OTHER_USE) == []


def test_the_fix_is_silent(tmp_path: Path) -> None:
    assert FIXED != PROGRAM
    first, second = _predictions(FIXED)
    assert not (first == second).any()
    assert opt020_lines(tmp_path, "evaluate.py", FIXED) == []
