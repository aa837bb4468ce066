"""OPT020 where the first draw's keys go only to a function that never reads its key parameter
(issue #25, rejax's tests: `act = agent.make_act(ts)` returns a nested `def act(obs, rng)` that
reads only `obs`, and `agent` comes from a classmethod constructor in another project file):
the split keys reach no result, so drawing from the split key afterwards is no reuse that
matters. The called function is found through the project's own files (a re-export, a
classmethod returning `cls(...)`, `super().create(...)`, a method returning its nested `def`,
`jax.vmap` and a `partial(jax.vmap, ...)` decorator around it). The look-alike whose `act`
draws from its key is still found. Both run with JAX: fresh keys for the split leave the
ignoring agent's actions unchanged and change the drawing one's."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import finding_line
from conftest import run_optlint_in_process as run_optlint

INIT = "from agents.algos import Agent, Noisy\n"

BASE = '''\
class Base:
    def __init__(self, **config):
        self.config = config

    @classmethod
    def create(cls, **config):
        return cls(**config)
'''

ALGOS = '''\
import jax

from agents.base import Base


class Scaled:
    @classmethod
    def create(cls, **config):
        made = super().create(**config)
        return made


class Agent(Scaled, Base):
    def make_act(self, weight):
        def act(obs, rng):
            return obs * weight
        return act


class Noisy(Scaled, Base):
    def make_act(self, weight):
        def act(obs, rng):
            return obs * weight + jax.random.normal(rng, obs.shape)
        return act
'''

SCRIPT = '''\
from functools import partial

import jax

from agents import {cls}


def evaluate():
    agent = {cls}.create(scale=2.0)
    act = agent.make_act(1.0)
    rng = jax.random.key(0)
    rngs = jax.random.split(rng, 4)
    obs = jax.random.uniform(rng, (4, 1))
    return jax.vmap(act)(obs, rngs)


def evaluate_each():
    agent = {cls}.create(scale=2.0)
    act = agent.make_act(1.0)

    @partial(jax.vmap, in_axes=(None, 0))
    def rows(obs, rng):
        return act(obs, rng)

    rng = jax.random.key(0)
    rngs = jax.random.split(rng, 4)
    obs = jax.random.uniform(rng, (4, 1))
    return [rows(o, rngs) for o in obs]
'''


def _project(tmp_path: Path) -> None:
    (tmp_path / "agents").mkdir(exist_ok=True)
    (tmp_path / "agents" / "__init__.py").write_text(INIT)
    (tmp_path / "agents" / "base.py").write_text(BASE)
    (tmp_path / "agents" / "algos.py").write_text(ALGOS)
    (tmp_path / "tests").mkdir(exist_ok=True)


@pytest.mark.parametrize(("cls", "expected"), [("Agent", []), ("Noisy", [13, 27])])
def test_keys_to_a_parameter_nothing_reads_reach_no_result(tmp_path: Path, cls: str,
                                                           expected: list[int]) -> None:
    _project(tmp_path)
    (tmp_path / "tests" / "test_act.py").write_text(SCRIPT.format(cls=cls))
    result = run_optlint("check", "tests/test_act.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    assert sorted(finding_line(f) for f in json.loads(result.stdout)) == expected


def test_an_instance_attribute_of_that_name_proves_nothing(tmp_path: Path) -> None:
    """An instance may hold its own `make_act` (set in `__init__`): the method is not proven to
    be what runs, so the reuse is still found."""
    _project(tmp_path)
    base = BASE.replace("self.config = config", "self.config = config\n"
                        "        self.make_act = config.get('make_act')")
    (tmp_path / "agents" / "base.py").write_text(base)
    (tmp_path / "tests" / "test_act.py").write_text(SCRIPT.format(cls="Agent"))
    result = run_optlint("check", "tests/test_act.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    assert sorted(finding_line(f) for f in json.loads(result.stdout)) == [13, 27]


RUN = '''\
import jax
import jax.numpy as jnp
from agents import {cls}

act = {cls}.create(scale=2.0).make_act(1.0)
obs = jax.random.uniform(jax.random.key(0), (4, 1))
a = jax.vmap(act)(obs, jax.random.split(jax.random.key(0), 4))
b = jax.vmap(act)(obs, jax.random.split(jax.random.key(7), 4))
print("same" if bool(jnp.all(a == b)) else "different")
'''


@pytest.mark.parametrize(("cls", "printed"), [("Agent", "same"), ("Noisy", "different")])
def test_the_agents_when_run(tmp_path: Path, cls: str, printed: str) -> None:
    _project(tmp_path)
    ran = subprocess.run([sys.executable, "-c", RUN.format(cls=cls)], cwd=tmp_path, text=True,
                         capture_output=True, env={"PYTHONPATH": str(tmp_path),
                                                   "JAX_PLATFORMS": "cpu"})
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == printed
