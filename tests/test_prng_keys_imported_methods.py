"""OPT020 on a method of an object whose class the file cannot tell, defined by the classes of
the project modules it imports (issue #25, loop; MultiNet e170d5c): `evaluate` is given a
`model` built by a config of the imported `policies` module and calls
`model.sample_actions(key, obs)` for every batch with one key, keeping every batch's actions.
`Gaussian.sample_actions` (marked `@override` over an abstract method) draws from the key:
every batch gets the same noise. Silent when an imported class defining the method ignores the
key, and when the file splits the key for each batch. Checked by the real command line and run
with JAX: equal noise, then different noise."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

BASE = '''\
import abc


class Policy(abc.ABC):
    @abc.abstractmethod
    def sample_actions(self, rng, obs): ...
'''

POLICIES = '''\
import jax
from typing_extensions import override

from base import Policy


class Gaussian(Policy):
    @override
    def sample_actions(self, rng, obs):
        return obs + jax.random.normal(rng, obs.shape)


class GaussianConfig:
    def load(self):
        return Gaussian()
'''

# One more imported class defines the method and never reads the key.
GREEDY = POLICIES + '''

class Greedy(Policy):
    def sample_actions(self, rng, obs):
        return obs
'''

EVALUATE = '''\
import jax
import jax.numpy as jnp

import policies


def evaluate(model, key, batches):
    predictions = []
    for batch in batches:
        actions = model.sample_actions(key, batch)
        flat = actions.flatten()
        predictions.extend([float(x) for x in flat.tolist()])
    return predictions


def main():
    model = policies.GaussianConfig().load()
    batches = [jnp.zeros(2), jnp.zeros(2)]
    return evaluate(model, jax.random.key(0), batches)
'''

SPLIT = EVALUATE.replace(
    "        actions = model.sample_actions(key, batch)\n",
    "        key, subkey = jax.random.split(key)\n"
    "        actions = model.sample_actions(subkey, batch)\n")


def _write(tmp_path: Path, policies: str) -> None:
    (tmp_path / "base.py").write_text(BASE)
    (tmp_path / "policies.py").write_text(policies)


def _predictions(tmp_path: Path, source: str) -> list[float]:
    pytest.importorskip("jax")
    pytest.importorskip("typing_extensions")
    (tmp_path / "evaluate.py").write_text(source)
    sys.path.insert(0, str(tmp_path))
    try:
        namespace: dict[str, Any] = {"__name__": "evaluate"}
        exec(compile(source, str(tmp_path / "evaluate.py"), "exec"), namespace)
        return namespace["main"]()
    finally:
        sys.path.remove(str(tmp_path))
        for name in ("base", "policies"):
            sys.modules.pop(name, None)


def test_a_method_every_imported_class_draws_from(tmp_path: Path) -> None:
    _write(tmp_path, POLICIES)
    first, second, third, fourth = _predictions(tmp_path, EVALUATE)
    assert (first, second) == (third, fourth)
    assert opt020_lines(tmp_path, "evaluate.py", EVALUATE) == [10]


def test_an_imported_class_ignoring_the_key_leaves_it_unproven(tmp_path: Path) -> None:
    _write(tmp_path, GREEDY)
    assert opt020_lines(tmp_path, "evaluate.py", EVALUATE) == []


def test_a_key_split_for_every_batch_is_silent(tmp_path: Path) -> None:
    _write(tmp_path, POLICIES)
    first, second, third, fourth = _predictions(tmp_path, SPLIT)
    assert (first, second) != (third, fourth)
    assert opt020_lines(tmp_path, "evaluate.py", SPLIT) == []
