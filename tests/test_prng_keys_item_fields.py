"""OPT020 through a callee drawing from a key its argument holds as an item (`batch["rng"]`) or
that it reads into a name of its own first (`rng = state.rng`) (issue #25, held-out set 3,
jafar's sample.py: a batch dict holding `rng`, sampled from in every frame of a loop). Each call
given the same object draws from the same key. Checked by the real command line, and run with
real JAX under its key-reuse checker and by value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

FRAMES = '''\
import jax


def sample(batch):
    return batch["x"] + jax.random.normal(batch["rng"], (3,))


def frames(key, n):
    batch = {"x": 0.0, "rng": key}
    out = []
    for _ in range(n):
        out.append(sample(batch))
        batch["x"] = out[-1]
    return out
'''

# The look-alike: each frame's batch is given a key of its own.
FRAMES_SPLIT = FRAMES.replace(
    "    for _ in range(n):\n",
    "    for _ in range(n):\n        key, batch[\"rng\"] = jax.random.split(key)\n")

# The key read out of the object into a name of the callee first, then split.
STATES = '''\
import jax


class State:
    def __init__(self, rng):
        self.rng = rng


def step(state):
    rng = state.rng
    rng, sub = jax.random.split(rng)
    return jax.random.normal(sub, (3,))


def both(key):
    state = State(key)
    return step(state), step(state)
'''

# The look-alike: each call is given an object holding a key of its own.
STATES_SPLIT = STATES.replace(
    "    state = State(key)\n    return step(state), step(state)\n",
    "    k1, k2 = jax.random.split(key)\n    return step(State(k1)), step(State(k2))\n")


def _run(source: str, entry: str, *args: Any) -> tuple[bool, Any]:
    """Whether JAX's checker raises, and what `entry` returns with it off."""
    pytest.importorskip("jax")
    import jax

    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    with jax.debug_key_reuse(True):
        try:
            namespace[entry](jax.random.key(0), *args)
            raised = False
        except jax.errors.KeyReuseError:
            raised = True
    return raised, namespace[entry](jax.random.key(0), *args)


def test_an_item_of_a_dict_drawn_from_in_every_iteration(tmp_path: Path) -> None:
    raised, out = _run(FRAMES, "frames", 2)
    # Each frame adds the same noise: the second is twice the first.
    assert raised and bool(((out[1] - out[0]) == out[0]).all())
    assert opt020_lines(tmp_path, "frames.py", FRAMES) == [12]


def test_a_key_of_its_own_per_frame_is_quiet(tmp_path: Path) -> None:
    raised, out = _run(FRAMES_SPLIT, "frames", 2)
    assert not raised and not bool(((out[1] - out[0]) == out[0]).all())
    assert opt020_lines(tmp_path, "frames.py", FRAMES_SPLIT) == []


def test_a_field_read_into_a_name_of_the_callee_first(tmp_path: Path) -> None:
    raised, (first, second) = _run(STATES, "both")
    assert raised and bool((first == second).all())
    assert opt020_lines(tmp_path, "states.py", STATES) == [17]


def test_an_object_with_a_key_of_its_own_per_call_is_quiet(tmp_path: Path) -> None:
    raised, (first, second) = _run(STATES_SPLIT, "both")
    assert not raised and not bool((first == second).all())
    assert opt020_lines(tmp_path, "states.py", STATES_SPLIT) == []


# The callee advances the object's key in place (mujoco_playground's `_apply_noise`:
# `info["rng"], noise_rng = jax.random.split(info["rng"])`): each call draws from a new key.
STORED = '''\
import jax


def noisy(info, value):
    info["rng"], noise_rng = jax.random.split(info["rng"])
    return value + jax.random.uniform(noise_rng, value.shape)


def both(key):
    info = {"rng": key}
    x = jax.numpy.zeros(3)
    return noisy(info, x), noisy(info, x)
'''


def test_a_callee_storing_a_new_key_in_the_object_is_quiet(tmp_path: Path) -> None:
    raised, (first, second) = _run(STORED, "both")
    assert not raised and not bool((first == second).all())
    assert opt020_lines(tmp_path, "stored.py", STORED) == []
