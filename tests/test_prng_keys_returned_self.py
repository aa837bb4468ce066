"""OPT020's "handed back unchanged" finding and a method that returns its own object (issue #25:
prophetverse's inference engine, `_infer` splitting `self._rng_key`, storing its samples on
`self` and returning `self` for chaining, as scikit-learn's `fit` does). The caller already
holds that object: nothing new is handed on to a next step, and whether the method runs twice
on one key is the question of a key kept on an object, which needs a step. A method of an
immutable module returning itself as the next state (`return x, self` on an `eqx.Module`,
storing nothing) is still found: the caller threads what it returns."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines

ENGINE = '''\
import jax


class Engine:
    def __init__(self, key):
        self._key = key

    def fit(self, x):
        _, k1, k2 = jax.random.split(self._key, 3)
        self.samples_ = jax.random.normal(k1, (3,)) + x
        self.noise_ = jax.random.normal(k2, (3,))
        return self


def forecast(x):
    engine = Engine(jax.random.key(0)).fit(x)
    return engine.samples_ + engine.noise_
'''

SAMPLER = '''\
import equinox as eqx
import jax


class Sampler(eqx.Module):
    key: jax.Array

    def sample(self):
        k1, k2 = jax.random.split(self.key)
        return jax.random.normal(k1, (3,)), self
'''


def test_a_method_setting_its_object_and_returning_it(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "engine.py", ENGINE) == []


def test_a_module_returning_itself_as_the_next_state(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sampler.py", SAMPLER) == [9]


def test_returning_another_parameter_it_sets(tmp_path: Path) -> None:
    """Only the method's own object: a state it is given and returns is handed on."""
    source = ENGINE.replace("    def fit(self, x):\n", "    def fit(self, x, state):\n").replace(
        "self._key, 3", "state.key, 3").replace("        return self\n",
                                                "        return state\n")
    assert opt020_lines(tmp_path, "engine.py", source) == [9]
