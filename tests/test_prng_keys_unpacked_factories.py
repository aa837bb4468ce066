"""OPT020 where the first draw's keys go only to an environment's `step_env` that never reads its
key, and the environment comes out of a tuple a function returns (issue #25, gymnax 1.0.1's
tests/test_terminal_states.py:75: `env, params = gymnax.make(env_name)` in a helper returning
`env, params, state, action, step_key`, called with "Pendulum-v1"; Pendulum's `step_env` reads no
key). The item of a returned tuple is followed into every `return` of a project function, a
string given literally rides along to the call that needs it, and gymnax's `make` makes the class
its registry names (`library_factories.py`, measured). The look-alikes whose `step_env` draws,
and an id the table does not know, are still reported. Both environments run with JAX."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import finding_line
from conftest import run_optlint_in_process as run_optlint

ENVS = '''\
import jax


class Quiet:
    def step_env(self, key, state):
        return state + 1.0

    def reset_env(self, key):
        return jax.random.normal(key)

    def step(self, key, state):
        key_step, key_reset = jax.random.split(key)
        return self.step_env(key_step, state) + self.reset_env(key_reset)


class Noisy(Quiet):
    def step_env(self, key, state):
        return state + jax.random.normal(key)


def make_env():
    return {cls}(), {{"max_steps": 1}}
'''

SCRIPT = '''\
import jax

from envs import make_env


def _at_time_limit():
    env, params = make_env()
    key, step_key = jax.random.split(jax.random.key(0))
    return env, params, step_key


def test_step():
    env, params, step_key = _at_time_limit()
    transition_key, _ = jax.random.split(step_key)
    final = env.step_env(transition_key, 1.0)
    observation = env.step(step_key, 1.0)
    return final, observation
'''


@pytest.mark.parametrize(("cls", "expected"), [("Quiet", []), ("Noisy", [16])])
def test_an_item_of_a_returned_tuple_is_the_class_returned(tmp_path: Path, cls: str,
                                                           expected: list[int]) -> None:
    (tmp_path / "envs.py").write_text(ENVS.format(cls=cls))
    (tmp_path / "test_env.py").write_text(SCRIPT)
    result = run_optlint("check", "test_env.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    assert sorted(finding_line(f) for f in json.loads(result.stdout)) == expected


WRITTEN_OUT = '''\
import jax

from envs import {cls}


def test_step():
    env, params = {cls}(), None
    step_key = jax.random.key(0)
    transition_key, _ = jax.random.split(step_key)
    final = env.step_env(transition_key, 1.0)
    observation = env.step(step_key, 1.0)
    return final, observation
'''


@pytest.mark.parametrize(("cls", "expected"), [("Quiet", []), ("Noisy", [11])])
def test_an_item_of_a_tuple_written_out(tmp_path: Path, cls: str, expected: list[int]) -> None:
    (tmp_path / "envs.py").write_text(ENVS.format(cls=cls))
    (tmp_path / "test_env.py").write_text(WRITTEN_OUT.format(cls=cls))
    result = run_optlint("check", "test_env.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    assert sorted(finding_line(f) for f in json.loads(result.stdout)) == expected


def test_returns_giving_other_classes_prove_nothing(tmp_path: Path) -> None:
    """One `return` gives a `Quiet`, another a `Noisy`: the item is not known, and the reuse
    is reported as before."""
    envs = ENVS.format(cls="Quiet").replace(
        "def make_env():\n",
        "def make_env(noisy=False):\n    if noisy:\n        return Noisy(), None\n")
    (tmp_path / "envs.py").write_text(envs)
    (tmp_path / "test_env.py").write_text(SCRIPT)
    result = run_optlint("check", "test_env.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    assert [finding_line(f) for f in json.loads(result.stdout)] == [16]


RUN = '''\
import jax
import jax.numpy as jnp
from envs import make_env

env, _ = make_env()
a = env.step_env(jax.random.key(1), 1.0)
b = env.step_env(jax.random.key(2), 1.0)
print("same" if bool(jnp.all(a == b)) else "different")
'''


@pytest.mark.parametrize(("cls", "printed"), [("Quiet", "same"), ("Noisy", "different")])
def test_the_environments_when_run(tmp_path: Path, cls: str, printed: str) -> None:
    (tmp_path / "envs.py").write_text(ENVS.format(cls=cls))
    ran = subprocess.run([sys.executable, "-c", RUN], cwd=tmp_path, text=True,
                         capture_output=True, env={"PYTHONPATH": str(tmp_path),
                                                   "JAX_PLATFORMS": "cpu"})
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == printed


# gymnax's own layout: `gymnax.make` is a function of the project whose registry a dict
# comprehension builds; what it makes for an id is the row of `library_factories.py`.
GYMNAX_FILES = {
    "gymnax/__init__.py": "from gymnax import registration\n\nmake = registration.make\n",
    "gymnax/registration.py": '''\
from gymnax.environments.bsuite import umbrella_chain
from gymnax.environments.classic_control import pendulum

_builtins = {
    "Pendulum-v1": pendulum.Pendulum,
    "UmbrellaChain-bsuite": umbrella_chain.UmbrellaChain,
}
_registry = {env_id: _builtins[env_id] for env_id in _builtins}


def make(env_id, **env_kwargs):
    env = _registry[env_id](**env_kwargs)
    return env, env.default_params
''',
    "gymnax/environments/__init__.py": "",
    "gymnax/environments/environment.py": '''\
from typing import Generic, TypeVar

import jax

TState = TypeVar("TState")


class Environment(Generic[TState]):
    default_params = None

    def step(self, key, state, action, params=None):
        key_step, key_reset = jax.random.split(key)
        stepped = self.step_env(key_step, state, action, params)
        return stepped, self.reset_env(key_reset, params)
''',
    "gymnax/environments/classic_control/__init__.py": "",
    "gymnax/environments/classic_control/pendulum.py": '''\
import jax.numpy as jnp

from gymnax.environments import environment


class Pendulum(environment.Environment[float]):
    def step_env(self, key, state, action, params):
        return jnp.cos(state) + action

    def reset_env(self, key, params):
        import jax
        return jax.random.uniform(key)
''',
    "gymnax/environments/bsuite/__init__.py": "",
    "gymnax/environments/bsuite/umbrella_chain.py": '''\
import jax

from gymnax.environments import environment


class UmbrellaChain(environment.Environment[float]):
    def step_env(self, key, state, action, params):
        return state + jax.random.bernoulli(key)

    def reset_env(self, key, params):
        return jax.random.uniform(key)
''',
}

GYMNAX_TEST = '''\
import jax

import gymnax
from gymnax.environments import environment  # (what proves that `env.step` draws)


def _step_at_time_limit(env_name: str):
    env, params = gymnax.make(env_name)
    key, step_key = jax.random.split(jax.random.key(0))
    return env, params, 0.5, 1.0, step_key


def test_time_limit():
    env, params, state, action, step_key = _step_at_time_limit("{env_id}")
    transition_key, _ = jax.random.split(step_key)
    final = env.step_env(transition_key, state, action, params)
    observation = env.step(step_key, state, action, params)
    assert final is not observation
'''


@pytest.mark.parametrize(("env_id", "expected"), [
    ("Pendulum-v1", []),  # its step_env reads no key
    ("UmbrellaChain-bsuite", [17]),  # its step_env draws
    ("Unknown-v0", [17]),  # no row: the class is not known
])
def test_gymnax_make_in_gymnax_itself(tmp_path: Path, env_id: str,
                                      expected: list[int]) -> None:
    for name, text in GYMNAX_FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_terminal.py").write_text(GYMNAX_TEST.format(env_id=env_id))
    result = run_optlint("check", "tests/test_terminal.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    assert sorted(finding_line(f) for f in json.loads(result.stdout)) == expected
