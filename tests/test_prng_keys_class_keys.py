"""OPT020 on a key kept on a class (issue #25, a gwkokab fix commit: a mixin's `rng_key`
property split `self._rng_key`, which a classmethod had set on the class, and stored the rest on
the instance, so every new instance split the class's key again and got the same subkey). A key
each instance gets when built, and a key split and stored back on the class, are not reported.
The program also runs with JAX."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

from conftest import run_optlint_in_process as run_optlint

MIXINS = '''\
import jax


class KeyMixin:
    @property
    def rng_key(self):
        self._rng_key, subkey = jax.random.split(self._rng_key)
        return subkey

    @classmethod
    def init_rng_seed(cls, seed):
        cls._rng_key = jax.random.PRNGKey(seed)


class SharedKeyMixin:
    @property
    def rng_key(self):
        cls = type(self)
        cls._rng_key, subkey = jax.random.split(cls._rng_key)
        return subkey

    @classmethod
    def init_rng_seed(cls, seed):
        cls._rng_key = jax.random.PRNGKey(seed)


class OwnKey:
    def __init__(self, seed):
        self._rng_key = jax.random.PRNGKey(seed)

    @property
    def rng_key(self):
        self._rng_key, subkey = jax.random.split(self._rng_key)
        return subkey
'''


def test_a_key_kept_on_the_class_and_split_per_instance(tmp_path: Path) -> None:
    (tmp_path / "mixins.py").write_text(MIXINS)
    result = run_optlint("check", "mixins.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    found = {(f["location"]["row"] if "location" in f else f["line"]): f["message"]
             for f in json.loads(result.stdout)}
    assert sorted(found) == [7]
    assert "every new instance" in found[7]


def test_class_keys_when_run(tmp_path: Path) -> None:
    (tmp_path / "mixins.py").write_text(MIXINS)
    namespace = runpy.run_path(str(tmp_path / "mixins.py"))
    mixin, shared = namespace["KeyMixin"], namespace["SharedKeyMixin"]
    mixin.init_rng_seed(0)
    assert (mixin().rng_key == mixin().rng_key).all()  # two instances, one subkey
    shared.init_rng_seed(0)
    assert not (shared().rng_key == shared().rng_key).all()
