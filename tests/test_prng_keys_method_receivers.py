"""OPT020 on methods of objects whose class the call does not say (issue #25, project
consumers and state): `self.policy.predict(obs, key)` twice, where `self.policy` comes from a
caller and every class of the file defining `predict` draws from the key; and a method given an
object holding a key (`emitter.emit(state)`) that draws from `state.key` without handing back a
new state, called on every generation. Checked by the real command line and run with JAX."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

POLICY = '''\
import jax


class Policy:
    def predict(self, obs, key):
        return obs + jax.random.normal(key, obs.shape)


class Trainer:
    def __init__(self, policy):
        self.policy = policy

    def collect(self, obs, key):
        first = self.policy.predict(obs, key)
        second = self.policy.predict(obs, key)
        return first, second
'''

POLICY_SPLIT = POLICY.replace(
    "        first = self.policy.predict(obs, key)\n",
    "        key, first_key = jax.random.split(key)\n"
    "        first = self.policy.predict(obs, first_key)\n")

EMITTER = '''\
from typing import NamedTuple

import jax


class State(NamedTuple):
    mean: jax.Array
    key: jax.Array


class Emitter:
    def emit(self, state):
        return state.mean + jax.random.normal(state.key, state.mean.shape)


def generations(state, n):
    emitter = Emitter()
    offspring = []
    for generation in range(n):
        offspring.append(emitter.emit(state))
    return offspring
'''

EMITTER_ADVANCED = EMITTER.replace(
    "        offspring.append(emitter.emit(state))\n",
    "        key, emit_key = jax.random.split(state.key)\n"
    "        offspring.append(emitter.emit(state._replace(key=emit_key)))\n"
    "        state = state._replace(key=key)\n")


def _run(source: str, call: str) -> tuple[Any, Any]:
    pytest.importorskip("jax")
    import jax

    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    if call == "collect":
        trainer = namespace["Trainer"](namespace["Policy"]())
        return trainer.collect(jax.numpy.zeros(3), jax.random.key(0))
    state = namespace["State"](jax.numpy.zeros(3), jax.random.key(0))
    first, second = namespace["generations"](state, 2)
    return first, second


def test_a_method_of_an_attribute_object_drawing_twice_from_one_key(tmp_path: Path) -> None:
    first, second = _run(POLICY, "collect")
    assert (first == second).all()
    assert opt020_lines(tmp_path, "policy.py", POLICY) == [15]


def test_a_method_of_an_attribute_object_given_split_keys_is_silent(tmp_path: Path) -> None:
    first, second = _run(POLICY_SPLIT, "collect")
    assert not (first == second).any()
    assert opt020_lines(tmp_path, "policy.py", POLICY_SPLIT) == []


def test_a_method_drawing_from_a_given_states_key_every_generation(tmp_path: Path) -> None:
    first, second = _run(EMITTER, "generations")
    assert (first == second).all()
    assert opt020_lines(tmp_path, "emitter.py", EMITTER) == [20]


def test_a_state_given_a_new_key_every_generation_is_silent(tmp_path: Path) -> None:
    first, second = _run(EMITTER_ADVANCED, "generations")
    assert not (first == second).any()
    assert opt020_lines(tmp_path, "emitter.py", EMITTER_ADVANCED) == []
