"""OPT020 through brax's pixel augmentation (issue #25, held-out set 8: yardenas/safe-sim2real
442ed54 shifts the observations and the next observations with one `key_obs`, through a helper
handing it to brax's `_random_translate_pixels`, which splits it into one key per row: every
next observation is shifted as its observation). The library fact is a row of
`key_consumers.py` (brax's function, run as written on jax 0.10.2, gave the same shifts for one
key twice and raised under `jax.debug_key_reuse`; brax is not installed here, so the test
checks the analysis only). Silent with a key of its own for each."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_optlint_in_process

SAC = """\
import jax
from brax.training.agents.ppo.train import (
    _random_translate_pixels as batch_random_translate_pixels,
)


def _random_translate_pixels(x, rng):
    x = jax.tree.map(lambda x: x[:, None], x)
    y = batch_random_translate_pixels(x, rng)
    return jax.tree.map(lambda y: y[:, 0], y)


def augment(transitions, key):
    key, key_obs = jax.random.split(key)
    observations = _random_translate_pixels(transitions.observation, key_obs)
    next_observations = _random_translate_pixels(transitions.next_observation, key_obs)
    return key, observations, next_observations
"""

APART = SAC.replace(
    "    key, key_obs = jax.random.split(key)\n",
    "    key, key_obs, key_next_obs = jax.random.split(key, 3)\n").replace(
    "transitions.next_observation, key_obs)", "transitions.next_observation, key_next_obs)")


def _lines(tmp_path: Path, source: str) -> list[int]:
    (tmp_path / "train.py").write_text(source)
    result = run_optlint_in_process("check", "train.py", "--select", "OPT020", "--no-cache",
                                    "--isolated", "--output-format", "json", cwd=tmp_path)
    return sorted(f["line"] for f in json.loads(result.stdout))


def test_one_key_for_both_augmentations(tmp_path: Path) -> None:
    assert _lines(tmp_path, SAC) == [16]


def test_a_key_for_each_is_silent(tmp_path: Path) -> None:
    assert "key_next_obs)" in APART
    assert _lines(tmp_path, APART) == []
