"""OPT020 on a key a state class holds by default (issue #25, keys through state): a NamedTuple
field `rng_key = jax.random.PRNGKey(0)` left out where `init(key)` builds the state, so two
environments reset with different seeds shuffle with the same key. Checked by the real command
line, and run with real JAX: both seeds give the same reshuffle (the reuse), or different ones
when `init` stores a key of its own (the look-alike)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

ENV = '''\
from typing import NamedTuple

import jax


class State(NamedTuple):
    deck: jax.Array
    rng_key: jax.Array = jax.random.PRNGKey(0)


def init(key):
    return State(deck=jax.random.permutation(key, 10))


def reshuffle(state):
    rng, key = jax.random.split(state.rng_key)
    return State(deck=jax.random.permutation(key, 10), rng_key=rng)
'''

ENV_KEYED = ENV.replace(
    "    return State(deck=jax.random.permutation(key, 10))",
    "    deal_key, state_key = jax.random.split(key)\n"
    "    return State(deck=jax.random.permutation(deal_key, 10), rng_key=state_key)")


def _reshuffled(source: str, seed: int) -> Any:
    pytest.importorskip("jax")
    import jax

    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    return namespace["reshuffle"](namespace["init"](jax.random.PRNGKey(seed))).deck


def test_a_default_key_left_in_states_built_apart(tmp_path: Path) -> None:
    assert bool((_reshuffled(ENV, 0) == _reshuffled(ENV, 1)).all())
    assert opt020_lines(tmp_path, "env.py", ENV) == [8]


def test_states_given_a_key_of_their_own_are_silent(tmp_path: Path) -> None:
    assert not bool((_reshuffled(ENV_KEYED, 0) == _reshuffled(ENV_KEYED, 1)).all())
    assert opt020_lines(tmp_path, "env.py", ENV_KEYED) == []
