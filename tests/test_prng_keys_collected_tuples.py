"""OPT020 on a loop that unpacks what a drawing helper returns and keeps the draw of every
iteration (issue #25, loops; sbx 9b34266): `actions, noise = predict(obs, key)` then
`noises.append(np.asarray(noise))` with one `key` keeps the same noise again and again, as
`noise = predict(obs, key)[1]` does. Checked by the real command line and run with JAX: the
kept draws are identical; the look-alike folding in the step keeps different ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

PROGRAM = '''\
import jax
import numpy as np


def predict(obs, key):
    noise = jax.random.normal(key, obs.shape)
    return obs + noise, noise


def rollout(obs, n_steps, key):
    noises = []
    for step in range(n_steps):
        actions, noise = predict(obs, key)
        noises.append(np.asarray(noise))
        obs = obs + 0.1 * actions
    return noises
'''

FOLDED = PROGRAM.replace("noise = predict(obs, key)", "noise = predict(obs, jax.random.fold_in(key, step))")


def _noises(source: str) -> list[Any]:
    pytest.importorskip("jax")
    import jax

    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    return namespace["rollout"](jax.numpy.zeros(3), 2, jax.random.key(0))


def test_unpacked_draws_kept_every_iteration_are_one_draw(tmp_path: Path) -> None:
    first, second = _noises(PROGRAM)
    assert (first == second).all()
    assert opt020_lines(tmp_path, "rollout.py", PROGRAM) == [13]


def test_a_key_folded_with_the_step_is_silent(tmp_path: Path) -> None:
    first, second = _noises(FOLDED)
    assert not (first == second).any()
    assert opt020_lines(tmp_path, "rollout.py", FOLDED) == []
