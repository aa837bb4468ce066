"""OPT020's role `consumed_in` for a reuse whose second consumer is a function of the file: the
consumption inside it of the key the call gives, the line to change (issue #25, held-out set 5:
eyeplan-hybrid 48ff84e, `_update_activation` splits `state.rng_key` and returns the state
without the advanced key, then `_corrupt_q_values(state, params)` splits `state.rng_key`
again at line 305: the finding is at the second call, the role at the split inside). A library
consumer (`jax.random.normal(key)`) has no such role."""

from __future__ import annotations

from pathlib import Path

from conftest import finding_line, opt020_findings

STATE = '''\
from typing import NamedTuple

import jax


class State(NamedTuple):
    rng_key: jax.Array
    drops: jax.Array
    q: jax.Array


def look(state):
    state = activate(state)
    return corrupt(state)


def activate(state):
    key, drop_key = jax.random.split(state.rng_key)
    return state._replace(drops=jax.random.uniform(drop_key, (3,)) < 0.5)


def corrupt(state):
    key = state.rng_key
    key, drift_key = jax.random.split(key)
    return state._replace(q=state.q + jax.random.normal(drift_key, (3,)), rng_key=key)
'''

LIBRARY = '''\
import jax


def noise(key):
    return jax.random.normal(key, (3,)), jax.random.normal(key, (3,))
'''


def _consumed_in(findings: list[dict]) -> list[tuple[int, int | None]]:
    return sorted((finding_line(f), f["roles"].get("consumed_in", {}).get("line"))
                  for f in findings)


def test_a_state_field_split_again_by_a_function_of_the_file(tmp_path: Path) -> None:
    found = _consumed_in(opt020_findings(tmp_path, "env.py", STATE))
    assert (14, 24) in found


def test_a_library_consumer_has_no_such_role(tmp_path: Path) -> None:
    assert _consumed_in(opt020_findings(tmp_path, "noise.py", LIBRARY)) == [(5, None)]
