"""OPT020 on brax's action distributions and on keys a step hands back after a callee consumed
them (issue #25; QDax fix b77eb55, `qdax/baselines/sac.py`: `_update_actor` split its key, gave
the old one to a loss whose `sample_no_postprocessing(params, random_key)` drew from it, and
returned that old key, which `update` stored in the next training state).

brax 0.14.2 measured (`/tmp/kp11b/measure/brax_sample_no_postprocessing.py`, jax 0.10.2): one key
given twice to `sample_no_postprocessing` gave equal actions, another key different ones, and a
split of the key afterwards raised `KeyReuseError` under `jax_debug_key_reuse`. brax is not a
test dependency: the programs below are only checked, not run."""

from __future__ import annotations

from pathlib import Path

from conftest import finding_line, opt020_findings

SAC = '''\
from typing import NamedTuple

import jax
from brax.training.distribution import ParametricDistribution


class State(NamedTuple):
    params: jax.Array
    key: jax.Array


def policy_loss(params, dist: ParametricDistribution, key):
    action = dist.sample_no_postprocessing(params, key)
    return (action ** 2).sum()


def update_actor(params, dist, key):
    key, subkey = jax.random.split(key)
    loss = policy_loss(
        params,
        dist,
        key,
    )
    return loss, key


def update_actor_fixed(params, dist, key):
    key, subkey = jax.random.split(key)
    loss = policy_loss(params, dist, subkey)
    return loss, key


def update(state, dist):
    loss, key = update_actor(state.params, dist, state.key)
    return State(state.params, key), loss


def update_fixed(state, dist):
    loss, key = update_actor_fixed(state.params, dist, state.key)
    return State(state.params, key), loss
'''

TWICE = '''\
import jax
{imports}


def actions(dist, params, key):
    first = dist.sample_no_postprocessing(params, key)
    key, subkey = jax.random.split(key)
    return first, key
'''


def test_brax_sample_no_postprocessing_draws_from_its_seed(tmp_path: Path) -> None:
    brax = TWICE.format(imports="from brax.training import distribution")
    found = opt020_findings(tmp_path, "actions.py", brax)
    assert [finding_line(f) for f in found] == [7]
    # The row is brax's: a file that does not import brax calls some other object's method.
    other = TWICE.format(imports="import numpy as np")
    assert opt020_findings(tmp_path, "other.py", other) == []


def test_key_handed_back_names_where_the_callee_consumed_it(tmp_path: Path) -> None:
    found = opt020_findings(tmp_path, "sac.py", SAC)
    assert [finding_line(f) for f in found] == [34]
    roles = found[0]["roles"]
    assert "handed back unchanged" in found[0]["message"]
    # The callee's call that consumed the key it returns: the loss given `key` (lines 19-23).
    assert (roles["returned_consumed"]["line"], roles["returned_consumed"]["end_line"]) == (19, 23)


CHAINED_STEPS = '''\
from typing import NamedTuple

import jax


class State(NamedTuple):
    params: jax.Array
    key: jax.Array


def loss(params, key):
    return (params * jax.random.normal(key, params.shape)).sum()


def update_critic(params, key):
    key, subkey = jax.random.split(key)
    return loss(params, key), key


def update_actor(params, key):
    key, subkey = jax.random.split(key)
    return loss(params, key), key


def update(state):
    critic, key = update_critic(state.params, state.key)
    actor, key = update_actor(state.params, key)
    return State(state.params, key), critic + actor
'''


def test_both_keys_of_one_call_are_reported(tmp_path: Path) -> None:
    """`update_actor` is given the key `update_critic` consumed, and returns one it consumed
    itself: two keys, two findings at the call."""
    found = opt020_findings(tmp_path, "steps.py", CHAINED_STEPS)
    assert sorted(finding_line(f) for f in found) == [27, 27]
    messages = [f["message"] for f in found]
    assert any("returned by `update_critic`" in message for message in messages)
    assert any("handed back unchanged" in message for message in messages)
