"""OPT020 on a state rebound to a copy of itself that keeps its key (issue #25, calls and
state; QDax b9cb394): `state = state._replace(mean=x)` in place, or `state = update(state, x)`
where `update` returns `state._replace(mean=x)`, keeps `state.key`, so the next iteration's
`normal(state.key)` draws the same numbers. Checked by the real command line and run with JAX:
identical draws; the look-alikes store a new key in the copy and draw different ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

IN_PLACE = '''\
from typing import NamedTuple

import jax


class State(NamedTuple):
    mean: jax.Array
    key: jax.Array


def update(state, x):
    return state._replace(mean=0.5 * state.mean + 0.5 * x)


def run(state, n):
    draws = []
    for generation in range(n):
        noise = jax.random.normal(state.key, state.mean.shape)
        draws.append(noise)
        x = state.mean + noise
        state = state._replace(mean=x)
    return draws
'''

THROUGH_A_FUNCTION = IN_PLACE.replace("        state = state._replace(mean=x)\n",
                                      "        state = update(state, x)\n")

NEW_KEY = IN_PLACE.replace(
    "        noise = jax.random.normal(state.key, state.mean.shape)\n",
    "        key, draw_key = jax.random.split(state.key)\n"
    "        noise = jax.random.normal(draw_key, state.mean.shape)\n").replace(
    "        state = state._replace(mean=x)\n", "        state = state._replace(mean=x, key=key)\n")

NEW_KEY_THROUGH_A_FUNCTION = NEW_KEY.replace(
    "        state = state._replace(mean=x, key=key)\n",
    "        state = update(state._replace(key=key), x)\n")


def _draws(source: str) -> list[Any]:
    pytest.importorskip("jax")
    import jax

    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    state = namespace["State"](jax.numpy.zeros(3), jax.random.key(0))
    return namespace["run"](state, 2)


@pytest.mark.parametrize("source", [IN_PLACE, THROUGH_A_FUNCTION], ids=["in-place", "function"])
def test_a_copy_keeping_the_key_draws_it_again(tmp_path: Path, source: str) -> None:
    first, second = _draws(source)
    assert (first == second).all()
    assert opt020_lines(tmp_path, "state.py", source) == [18]


@pytest.mark.parametrize("source", [NEW_KEY, NEW_KEY_THROUGH_A_FUNCTION],
                         ids=["in-place", "function"])
def test_a_copy_given_a_new_key_is_silent(tmp_path: Path, source: str) -> None:
    first, second = _draws(source)
    assert not (first == second).any()
    assert opt020_lines(tmp_path, "state.py", source) == []
