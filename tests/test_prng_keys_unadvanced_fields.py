"""OPT020 for a method that draws from a key its object holds and leaves it as it was, while the
class's other methods advance that key before they draw (issue #25, held-out set 2: a model
class split `self.rng_key` in `__call__` and `sample`, but `forward` handed it to a sampler as
it was, so every `forward()` drew the same samples). A class that never advances its key is not
reported here (nothing says it means to), nor a method that advances the key itself. The
programs also run with JAX."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import numpy as np
import pytest

from conftest import run_optlint_in_process as run_optlint

PROGRAM = '''\
import jax


def sample_forward(rng_key, n):
    keys = jax.random.split(rng_key, n)
    return jax.vmap(lambda k: jax.random.normal(k))(keys)


class Model:
    def __init__(self, scale):
        self.scale = scale
        self.rng_key = jax.random.PRNGKey(53)

    def __call__(self):
        _, self.rng_key = jax.random.split(self.rng_key)
        return self.scale * jax.random.normal(self.rng_key)

    def sample(self, n):
        self.rng_key = jax.random.split(self.rng_key)[0]
        return sample_forward(self.rng_key, n)

    def forward(self, n):
        return sample_forward(self.rng_key, n)

    def noise(self):
        return jax.random.uniform(self.rng_key)

    def forward_advanced(self, n):
        self.rng_key, key = jax.random.split(self.rng_key)
        return sample_forward(key, n)


class Fixed:
    def __init__(self):
        self.rng_key = jax.random.PRNGKey(0)

    def noise(self):
        return jax.random.uniform(self.rng_key)
'''


def _rows(tmp_path: Path) -> list[int]:
    (tmp_path / "model.py").write_text(PROGRAM)
    result = run_optlint("check", "model.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    return sorted(f["line"] for f in json.loads(result.stdout))


def test_a_method_leaving_the_key_the_class_advances(tmp_path: Path) -> None:
    # 23: `forward` through the file's sampler; 26: `noise` drawing itself. Not:
    # `forward_advanced` (advances it), `Fixed.noise` (its class never advances the key).
    assert _rows(tmp_path) == [23, 26]


def test_the_method_when_run(tmp_path: Path) -> None:
    import jax

    (tmp_path / "model.py").write_text(PROGRAM)
    model = runpy.run_path(str(tmp_path / "model.py"))["Model"](2.0)
    assert np.array_equal(model.forward(3), model.forward(3))  # the same samples twice
    assert not np.array_equal(model.forward_advanced(3), model.forward_advanced(3))
    jax.config.update("jax_debug_key_reuse", True)
    try:
        model = runpy.run_path(str(tmp_path / "model.py"))["Model"](2.0)
        model.rng_key = jax.random.key(53)  # a typed key, as the checker wants
        model.forward(3)
        with pytest.raises(jax.errors.KeyReuseError):
            model()  # splits the key `forward` drew from
    finally:
        jax.config.update("jax_debug_key_reuse", False)
