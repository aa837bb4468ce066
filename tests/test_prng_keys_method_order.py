"""OPT020 for two methods of one object drawing from the key it holds from construction,
where one can run only after the other (issue #25; prophetverse 67a162d: `_predict` builds
its `Predictive` from `self.posterior_samples_`, which only `_infer` sets, and both called it
with `self._rng_key`). Whenever `predict` runs, `fit` has drawn from the same key on the same
object: found at `predict`'s draw. Look-alikes leave the order or the key unproven: silent.
Run with JAX, the two methods draw the same numbers exactly where the finding is."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax.numpy as jnp
import pytest

from conftest import opt020_lines

SAMPLER = '''\
import jax
import jax.numpy as jnp


class Sampler:
    def __init__(self, key):
        self.key = key

    def fit(self, x):
        noise = jax.random.normal(self.key, x.shape)
        self.center_ = jnp.mean(x + noise)
        return self

    def predict(self, n):
        center = self.center_
        return center + jax.random.normal(self.key, (n,))
'''


def test_a_method_that_runs_after_the_one_setting_what_it_reads(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sampler.py", SAMPLER) == [16]


def test_the_two_methods_draw_the_same_numbers(tmp_path: Path) -> None:
    path = tmp_path / "sampler.py"
    path.write_text(SAMPLER + '''

def noises():
    x = jnp.zeros(3)
    sampler = Sampler(jax.random.key(0)).fit(x)
    return jax.random.normal(sampler.key, x.shape), sampler.predict(3) - sampler.center_
''')
    fitted, predicted = runpy.run_path(str(path))["noises"]()
    assert bool(jnp.allclose(fitted, predicted, atol=1e-6))  # up to `center +` and `- center`


# (what is changed, to what): each leaves the order or the key unproven
LOOK_ALIKES = [
    # `predict` may run without `fit`: it reads the attribute only on a branch
    ("        center = self.center_\n",
     "        center = self.center_ if hasattr(self, 'center_') else 0.0\n"),
    # the constructor sets the attribute too: `predict` may run first
    ("        self.key = key\n", "        self.key = key\n        self.center_ = 0.0\n"),
    # `fit` sets the attribute before it draws, on a branch: it may set it without drawing
    ("        noise = jax.random.normal(self.key, x.shape)\n"
     "        self.center_ = jnp.mean(x + noise)\n",
     "        self.center_ = jnp.mean(x)\n"
     "        if x.ndim > 1:\n"
     "            self.center_ = self.center_ + jax.random.normal(self.key, ())\n"),
    # `predict` moves the key on: the object's key is not the constructor's any more (but
    # `fit` now draws from a key the class advances, without advancing it: that finding,
    # `key_unadvanced_fields.py`, is at `fit`'s draw, line 10)
    ("        return center + jax.random.normal(self.key, (n,))\n",
     "        self.key, sub = jax.random.split(self.key)\n"
     "        return center + jax.random.normal(sub, (n,))\n"),
    # another method sets the key anew
    ("    def predict(self, n):\n",
     "    def reseed(self, key):\n        self.key = key\n\n    def predict(self, n):\n"),
]


@pytest.mark.parametrize(("old", "new"), LOOK_ALIKES)
def test_look_alikes_stay_silent(tmp_path: Path, old: str, new: str) -> None:
    assert old in SAMPLER
    # The one finding left is the advancing look-alike's at `fit` (line 10), not the order's.
    advancing = "split(self.key)" in new
    assert opt020_lines(tmp_path, "sampler.py", SAMPLER.replace(old, new)) == (
        [10] if advancing else [])


BASE = '''\
class Engine:
    def __init__(self, key):
        self.key = key
{extra}'''

SUBCLASS = '''\
import jax
import jax.numpy as jnp

from engine import Engine


class Sampler(Engine):
    def fit(self, x):
        self.center_ = jnp.mean(x + jax.random.normal(self.key, x.shape))
        return self

    def predict(self, n):
        return self.center_ + jax.random.normal(self.key, (n,))
'''


@pytest.mark.parametrize(("extra", "expected"), [
    ("", [13]),  # the base class of another file sets the key only when built
    ("\n    def reseed(self, key):\n        self.key = key\n", []),  # or anew, any time
])
def test_a_key_set_by_a_base_class_of_another_file(tmp_path: Path, extra: str,
                                                   expected: list[int]) -> None:
    (tmp_path / "engine.py").write_text(BASE.format(extra=extra))
    assert opt020_lines(tmp_path, "sampler.py", SUBCLASS) == expected


# A fit-style method sets the attribute first and draws after it (cfa-immunization-uptake-
# projection cb96d76, held-out set 3: `self.mcmc = MCMC(...)`, then `self.mcmc.run(
# self.rng_key, ...)`): it cannot set it and return without drawing. `predict` draws on both
# branches of an `if`: each draw is the reuse.
SET_THEN_DRAW = '''\
import jax
import jax.numpy as jnp


class Sampler:
    def __init__(self, key):
        self.key = key

    def fit(self, x):
        self.center_ = jnp.mean(x)
        self.noise_ = jax.random.normal(self.key, x.shape)
        return self

    def predict(self, n, shifted=False):
        center = self.center_
        if shifted:
            return center + 1.0 + jax.random.normal(self.key, (n,))
        return center + jax.random.normal(self.key, (n,))
'''


def test_a_method_setting_the_attribute_before_it_draws(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sampler.py", SET_THEN_DRAW) == [17, 18]
    path = tmp_path / "run_sampler.py"
    path.write_text(SET_THEN_DRAW + '''

def noises():
    sampler = Sampler(jax.random.key(0)).fit(jnp.zeros(3))
    return sampler.noise_, sampler.predict(3) - sampler.center_
''')
    fitted, predicted = runpy.run_path(str(path))["noises"]()
    assert bool(jnp.allclose(fitted, predicted, atol=1e-6))


# A statement between the setting and the draw that can leave the method: `fit` may set the
# attribute and return without drawing.
SET_THEN_LEAVE = SET_THEN_DRAW.replace(
    "        self.center_ = jnp.mean(x)\n",
    "        self.center_ = jnp.mean(x)\n        if x.size == 0:\n            return self\n")


def test_a_method_that_may_return_between_setting_and_drawing_is_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sampler.py", SET_THEN_LEAVE) == []
