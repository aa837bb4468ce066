"""OPT020 on loops that are not a Python `for` over a `jax.random` call with a counter (issue
#25): a jitted method given one key for every batch, a callee making its key from a seed the
loop leaves at its default, a loop over settings keeping every draw in one list. Each has a
correct look-alike that stays silent; checked through the real command line."""

from __future__ import annotations

from pathlib import Path

from conftest import finding_line, opt020_findings, opt020_lines

JITTED_METHOD = '''\
from functools import partial

import jax


class Policy:
    @partial(jax.jit, static_argnums=(0,))
    def sample_actions(self, rng, obs):
        return jax.random.normal(rng, obs.shape)


def evaluate(policy: Policy, key, batches):
    actions = []
    for batch in batches:
        actions.append(policy.sample_actions(key, batch))
    return actions


def evaluate_fresh(policy: Policy, key, batches):
    actions = []
    for batch in batches:
        key, subkey = jax.random.split(key)
        actions.append(policy.sample_actions(subkey, batch))
    return actions
'''


def test_a_jitted_method_given_one_key_for_every_batch(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "policy.py", JITTED_METHOD) == [15]


DEFAULT_SEED = '''\
from jax import random


class Scheduler:
    def step(self, sample, t, seed: int = 0):
        if t > 0:
            key = random.PRNGKey(seed)
            sample = sample + random.normal(key, sample.shape)
        return sample


def denoise(scheduler: Scheduler, sample, timesteps):
    for t in timesteps:
        sample = scheduler.step(sample, t).clip(-1, 1)
    return sample


def denoise_seeded(scheduler: Scheduler, sample, timesteps):
    for t in timesteps:
        sample = scheduler.step(sample, t, seed=t).clip(-1, 1)
    return sample
'''


def test_a_callee_seeded_from_the_default_in_a_loop_over_timesteps(tmp_path: Path) -> None:
    findings = opt020_findings(tmp_path, "scheduler.py", DEFAULT_SEED)
    assert [finding_line(finding) for finding in findings] == [14]
    assert "whose default is 0" in findings[0]["message"]


SETTINGS_LOOP = '''\
import jax


def prior_draws(key, scales):
    draws = []
    for scale in scales:
        draw = scale * jax.random.normal(key, (3,))
        draws.append(draw)
    return draws


def compared_on_one_draw(key, scales):
    for scale in scales:
        draw = scale * jax.random.normal(key, (3,))
        print(scale, draw)


def prior_draws_split(key, scales):
    draws = []
    for scale in scales:
        key, subkey = jax.random.split(key)
        draw = scale * jax.random.normal(subkey, (3,))
        draws.append(draw)
    return draws
'''


def test_a_loop_over_settings_keeping_every_draw(tmp_path: Path) -> None:
    # Only the loop that gathers its draws into one list: printing each setting's draw
    # compares the settings on one draw, which code does on purpose.
    assert opt020_lines(tmp_path, "prior.py", SETTINGS_LOOP) == [7]


DEFAULT_FIELD_CHAIN = '''\
from dataclasses import dataclass, replace

import jax


@dataclass
class State:
    board: jax.Array
    rng_key: jax.Array = jax.random.PRNGKey(0)


def init(key):
    return State(board=jax.random.uniform(key, (4,)))


def step(state: State):
    rng_key, sub_key = jax.random.split(state.rng_key)
    tile = jax.random.randint(sub_key, (), 0, 4)
    return replace(state, board=state.board.at[tile].add(1.0), rng_key=rng_key)
'''


def test_a_default_key_replaced_only_by_its_own_split(tmp_path: Path) -> None:
    # `step` stores a key split from the field's own: every state `init` builds still starts
    # from `PRNGKey(0)`, so every game places the same tiles.
    assert opt020_lines(tmp_path, "game.py", DEFAULT_FIELD_CHAIN) == [9]
    stored = DEFAULT_FIELD_CHAIN.replace("return State(board=jax.random.uniform(key, (4,)))",
                                         "key, kept = jax.random.split(key)\n"
                                         "    return State(board=jax.random.uniform(key, (4,)),"
                                         " rng_key=kept)")
    assert opt020_lines(tmp_path, "game.py", stored) == []


CLASSMETHOD_RETURNS_GIVEN_KEY = '''\
from functools import partial

import jax


class Agent:
    def __init__(self, key):
        self.key = key
        self.params = 0.0

    @staticmethod
    @jax.jit
    def update(params, key):
        key, noise_key = jax.random.split(key)
        return params + jax.random.normal(noise_key), key

    @classmethod
    @partial(jax.jit, static_argnames=["cls", "steps"])
    def _train(cls, params, steps: int, key):
        def one_update(i, carry):
            params, key = carry
            params, key = cls.update(params, key)
            return params, key

        params, new_key = jax.lax.fori_loop(0, steps, one_update, (params, key))
        return params, key

    def train(self, steps: int):
        self.params, self.key = self._train(self.params, steps, self.key)
'''


def test_a_classmethod_handing_back_the_key_it_was_given(tmp_path: Path) -> None:
    findings = opt020_findings(tmp_path, "agent.py", CLASSMETHOD_RETURNS_GIVEN_KEY)
    assert [finding_line(finding) for finding in findings] == [29]
    assert "hands it back (line 26)" in findings[0]["message"]
    fixed = CLASSMETHOD_RETURNS_GIVEN_KEY.replace("return params, key\n\n    def train",
                                                  "return params, new_key\n\n    def train")
    assert opt020_lines(tmp_path, "agent.py", fixed) == []


CONSTANT_SEED_CALLEE = '''\
import jax
from numpyro import handlers


def simulator(k):
    return k


def rollout(k):
    seeded = handlers.seed(simulator, rng_seed=0)
    return handlers.trace(seeded).get_trace(k)


def noise(x):
    key = jax.random.PRNGKey(0)
    return x + jax.random.normal(key, x.shape)


def train(k, x):
    for epoch in range(10):
        loss, grad = jax.value_and_grad(rollout)(k)
        k = k - grad
        x = noise(x)
    return k, x


def finite_difference(k, eps):
    return (rollout(k + eps) - rollout(k - eps)) / (2 * eps)
'''


def test_a_callee_seeded_from_a_literal_in_a_training_loop(tmp_path: Path) -> None:
    # Every epoch draws the same noise; two calls outside a loop may mean to (a finite
    # difference on one noise realisation), and stay silent.
    findings = opt020_findings(tmp_path, "control.py", CONSTANT_SEED_CALLEE)
    assert [finding_line(finding) for finding in findings] == [21, 23]
    assert all("literal seed 0" in finding["message"] for finding in findings)


TWO_OBJECTS = '''\
import equinox as eqx
import jax


class Noise(eqx.Module):
    key: jax.Array
    scale: float = 1.0

    def sample(self, shape):
        return self.scale * jax.random.normal(self.key, shape)


class Ice(Noise):
    pass


class Flow:
    def sample(self, key, shape):
        return jax.random.normal(key, shape)


def built_with_one_key(key):
    ice = Ice(key=key, scale=0.5)
    detector = Noise(key=key)
    return ice.sample((3,)) + detector.sample((3,))


def split_then_unsplit(a: Flow, b: Flow, key):
    key_a, key_b = jax.random.split(key)
    return a.sample(key, (3,)), b.sample(key, (3,))


def compared_on_one_draw(a: Flow, b: Flow, key):
    return a.sample(key, (3,)) - b.sample(key, (3,))
'''


def test_two_objects_drawing_from_one_key(tmp_path: Path) -> None:
    # Built holding one key (the subclass inherits the drawing method), or given the key
    # just split into keys nothing reads; a key passed to two objects' methods to compare
    # them on one draw stays silent.
    assert opt020_lines(tmp_path, "noise.py", TWO_OBJECTS) == [25, 30]


SEEDS_GIVEN = '''\
import jax


class Env:
    def __init__(self, seed: int):
        self.key = jax.random.PRNGKey(seed)

    def act(self):
        self.key, key = jax.random.split(self.key)
        return jax.random.normal(key)


def noise(shape, seed):
    return jax.random.normal(jax.random.PRNGKey(seed), shape)


def rollouts(seed):
    first, second = Env(seed), Env(seed)
    return first.act(), second.act()


def train(x, seed):
    for step in range(10):
        x = x + noise(x.shape, seed)
    return x


def train_seeded(x, seed):
    for step in range(10):
        x = x + noise(x.shape, seed + step)
    return x
'''


def test_one_seed_turned_into_keys_by_callees(tmp_path: Path) -> None:
    # A constructor and a function making their key from the seed they are given: two
    # environments of one seed act alike, and every step draws the same noise.
    findings = opt020_findings(tmp_path, "envs.py", SEEDS_GIVEN)
    assert [finding_line(finding) for finding in findings] == [18, 24]
    assert "`Env` makes its key from `seed`" in findings[0]["message"]


IN_PLACE_AND_ADVANCED = '''\
import jax


class Normal:
    def sample(self, key):
        return jax.random.normal(key)


def sample_nodes(key, nodes):
    values = {}
    for node in nodes:
        values[node] = Normal().sample(key)
    return values


def shots(key, circuits):
    results = []
    for circuit in circuits:
        results.append(Normal().sample(key))
    return results


def chain(key, state, step):
    for _ in range(100):
        _, key = jax.random.split(key)
        state = kernel(key, state)
    return state


@jax.jit
def kernel(key, state):
    return state + jax.random.normal(key)


def chain_fresh(key, state):
    for _ in range(100):
        key, step_key = jax.random.split(key)
        state = kernel(step_key, state)
    return state
'''


def test_draws_collected_in_place_and_a_consumed_key_split_next(tmp_path: Path) -> None:
    # Every node's and every circuit's draw kept in one collection from one key; a sampler
    # stepping with the key it keeps and splits again in the next iteration.
    assert opt020_lines(tmp_path, "graph.py", IN_PLACE_AND_ADVANCED) == [12, 19, 25]
