"""OPT020 through gymnax environments' `step`, which splits the key it is given for the
auto-reset (issue #25, held-out set 2: a DQN trainer drew a dummy transition with
`env.step(rng, ...)` and then went on with `rng, _rng = jax.random.split(rng)`). The environment
is named by a configuration, not a literal (`basic_env, env_params = gymnax.make(config[...])`),
and wrapped, as real trainers do. gymnax is not installed for the tests: the row's measurement is
`benchmarks/facts/gymnax_step_splits.py` (every registered environment, bare and wrapped: a split
of the key after `step` raised KeyReuseError)."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines

TRAINER = '''\
import gymnax
import jax
from gymnax.wrappers.purerl import FlattenObservationWrapper, LogWrapper


def make_train(config):
    basic_env, env_params = gymnax.make(config["ENV_NAME"])
    env = FlattenObservationWrapper(basic_env)
    env = LogWrapper(env)

    def dummy_then_train(rng, state, action):
        out = env.step(rng, state, action, env_params)
        rng, _rng = jax.random.split(rng)
        return out, _rng

    def fresh_key(rng, state, action):
        rng, step_rng = jax.random.split(rng)
        out = env.step(step_rng, state, action, env_params)
        rng, _rng = jax.random.split(rng)
        return out, _rng

    def bare_env_twice(rng, state, action):
        first = basic_env.step(rng, state, action, env_params)
        second = basic_env.step(rng, state, action, env_params)
        return first, second

    return dummy_then_train, fresh_key, bare_env_twice
'''


def test_step_of_a_made_environment_consumes_its_key(tmp_path: Path) -> None:
    # 13: split after the wrapped env's step; 24: the bare env's step again. Not: a key split
    # off for the step.
    assert opt020_lines(tmp_path, "trainer.py", TRAINER) == [13, 24]


def test_a_step_of_something_else_is_not_gymnax(tmp_path: Path) -> None:
    other = TRAINER.replace('gymnax.make(config["ENV_NAME"])', 'make_env(config["ENV_NAME"])')
    other = other.replace("import gymnax\n", "from envs import make_env\n")
    other = other.replace("    env = FlattenObservationWrapper(basic_env)\n    env = LogWrapper(env)\n",
                          "    env = basic_env\n")
    assert opt020_lines(tmp_path, "trainer.py", other) == []
