"""OPT020 on a key handed to a helper inside an object built for it (issue #25, class 6):
`behavior = Behavior(rng_key=key)` then `act(behavior, obs)`, which splits `behavior.rng_key`,
consumes the caller's `key`; a scan step carrying that `key` back hands the next step a key
already drawn from. Checked by the real command line, and run with real JAX: each step's
anchor noise repeats the previous step's action noise (the reuse), or does not (the
look-alike that splits three ways)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

DREAMS = '''\
from typing import NamedTuple

import jax


class Behavior(NamedTuple):
    rng_key: jax.Array


def act(behavior, obs):
    rng, sample_key = jax.random.split(behavior.rng_key)
    return behavior._replace(rng_key=rng), jax.random.normal(sample_key, obs.shape)


def dream_step(carry, _):
    key, obs = carry
    key, anchor_key = jax.random.split(key)
    anchor = jax.random.normal(anchor_key, obs.shape)
    behavior = Behavior(rng_key=key)
    behavior, noise = act(behavior, anchor)
    return (key, obs + noise), (anchor, noise)


def dream(key, obs):
    return jax.lax.scan(dream_step, (key, obs), None, length=4)
'''

DREAMS_SPLIT = DREAMS.replace(
    "    key, anchor_key = jax.random.split(key)",
    "    key, anchor_key, rollout_key = jax.random.split(key, 3)").replace(
    "Behavior(rng_key=key)", "Behavior(rng_key=rollout_key)")


def _repeats(source: str) -> bool:
    """Whether each dream's anchor noise equals the previous dream's action noise."""
    pytest.importorskip("jax")
    import jax
    import jax.numpy as jnp

    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    _, (anchors, noises) = namespace["dream"](jax.random.key(7), jnp.zeros(3))
    return bool(jnp.all(anchors[1:] == noises[:-1]))


def test_a_key_built_into_an_object_then_carried_back(tmp_path: Path) -> None:
    assert _repeats(DREAMS)
    assert opt020_lines(tmp_path, "dream.py", DREAMS) == [20]


def test_a_key_of_its_own_for_the_object_is_silent(tmp_path: Path) -> None:
    assert not _repeats(DREAMS_SPLIT)
    assert opt020_lines(tmp_path, "dream.py", DREAMS_SPLIT) == []
