"""OPT020 on a key held by an object handed to two functions that each draw from it (issue #25:
an agent's `state.rng_key` split by a dreaming rollout and again by the acting step, so both
drew the same numbers). A function that draws from `param.<field>` consumes the caller's
`<name>.<field>`; a state the first call hands back with a new key is a new key. The program
also runs with JAX."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import numpy as np

from conftest import run_optlint_in_process as run_optlint

AGENT = '''\
from typing import NamedTuple

import jax


class State(NamedTuple):
    rng_key: jax.Array


def dream(state):
    _, noise_key = jax.random.split(state.rng_key)
    return jax.random.uniform(noise_key)


def act(state):
    next_key, noise_key = jax.random.split(state.rng_key)
    return state._replace(rng_key=next_key), jax.random.uniform(noise_key)


def step(state):
    dreamt = dream(state)
    state, acted = act(state)
    return state, dreamt, acted


def two_steps(state):
    state, first = act(state)
    state, second = act(state)
    return first, second
'''


def test_an_object_handed_to_two_drawing_functions(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text(AGENT)
    result = run_optlint("check", "agent.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    assert sorted(f["location"]["row"] if "location" in f else f["line"]
                  for f in json.loads(result.stdout)) == [22]


def test_an_object_handed_to_two_functions_when_run(tmp_path: Path) -> None:
    (tmp_path / "agent.py").write_text(AGENT)
    namespace = runpy.run_path(str(tmp_path / "agent.py"))
    import jax

    state = namespace["State"](jax.random.key(0))
    _, dreamt, acted = namespace["step"](state)
    assert np.array_equal(dreamt, acted)  # the same number dreamt and acted on
    first, second = namespace["two_steps"](state)
    assert not np.array_equal(first, second)
