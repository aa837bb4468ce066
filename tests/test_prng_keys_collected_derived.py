"""OPT020 on a loop over batches that keeps what it computes from each draw (issue #25, loop;
MultiNet e170d5c): `actions = policy.sample_actions(key, batch)` with one key for every batch,
then `flat = np.asarray(actions).flatten()` and `results.all_preds.extend([... for x in
flat.tolist()])`. A loop over data, not steps, may mean one fixed key (an evaluation); once
every batch's draws are gathered in one result, that result holds the same numbers again and
again. Silent when the loop keeps only what every key gives alike (the draws' shape) or a value
mixing the draw with other data (a loss), and when it splits the key for each batch. Checked by the real command line and run with JAX."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

PROGRAM = '''\
import jax
import numpy as np


class Policy:
    def sample_actions(self, rng, batch):
        return batch + jax.random.normal(rng, batch.shape)


class Results:
    def __init__(self):
        self.all_preds = []
        self.sizes = []


def evaluate(policy, key, batches):
    results = Results()
    for batch in batches:
        actions = policy.sample_actions(key, batch)
        flat = np.asarray(actions).flatten() if actions.ndim > 1 else np.asarray(actions)
        results.all_preds.extend([float(x) for x in flat.tolist()])
    return results


def main():
    batches = [np.zeros(2), np.zeros(2)]
    return evaluate(Policy(), jax.random.key(0), batches)
'''

SHAPES = PROGRAM.replace(
    "        results.all_preds.extend([float(x) for x in flat.tolist()])\n",
    "        results.sizes.append(flat.shape)\n")

# What is kept mixes the draw with other values (a loss on fixed noise, as code compares
# settings on purpose): not followed.
LOSS = PROGRAM.replace(
    "        results.all_preds.extend([float(x) for x in flat.tolist()])\n",
    "        loss = np.mean((flat - batch) ** 2)\n"
    "        results.sizes.append(loss)\n")

SPLIT = PROGRAM.replace(
    "        actions = policy.sample_actions(key, batch)\n",
    "        key, subkey = jax.random.split(key)\n"
    "        actions = policy.sample_actions(subkey, batch)\n")


def _predictions(source: str) -> list[float]:
    pytest.importorskip("jax")
    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    return namespace["main"]().all_preds


def test_draws_gathered_through_names_made_from_them(tmp_path: Path) -> None:
    first, second, third, fourth = _predictions(PROGRAM)
    assert (first, second) == (third, fourth)
    assert opt020_lines(tmp_path, "evaluate.py", PROGRAM) == [19]


def test_only_the_shape_kept_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "evaluate.py", SHAPES) == []


def test_a_loss_computed_from_the_draw_is_silent(tmp_path: Path) -> None:
    assert LOSS != PROGRAM
    assert opt020_lines(tmp_path, "evaluate.py", LOSS) == []


def test_a_key_split_for_every_batch_is_silent(tmp_path: Path) -> None:
    first, second, third, fourth = _predictions(SPLIT)
    assert (first, second) != (third, fourth)
    assert opt020_lines(tmp_path, "evaluate.py", SPLIT) == []
