"""OPT020 through functions and classes of other files of the project (issue #25, a gwkokab
fix commit: a sampler imported from the project's `utils.py` drew `m1` from the key, then a
vmapped lambda drew every row of `q` from it again). What the other file's function does with
its key is read in that file: one that draws from it consumes the caller's key, one that ignores
it does not. A lambda vmapped over rows that closes over a key draws the same numbers in every
row. The programs also run with JAX."""

from __future__ import annotations

import json
import runpy
import sys
from pathlib import Path

import numpy as np

from conftest import run_optlint_in_process as run_optlint

SAMPLING = '''\
import jax


def inverse_sample(scale, shape, *, key):
    return scale * jax.random.uniform(key, shape)


def constant_sample(scale, shape, *, key):
    return scale * jax.numpy.ones(shape)


class Layer:
    def __init__(self, size, *, key):
        self.weight = jax.random.normal(key, (size, size))
'''

MODELS = '''\
import jax

from sampling import Layer, constant_sample, inverse_sample


def masses(key):
    m1 = inverse_sample(2.0, (3,), key=key)
    q = jax.vmap(lambda m: inverse_sample(m, (), key=key))(m1)
    return m1, q


def masses_split(key):
    key_m1, key_q = jax.random.split(key)
    m1 = inverse_sample(2.0, (3,), key=key_m1)
    keys = jax.random.split(key_q, 3)
    q = jax.vmap(lambda m, k: inverse_sample(m, (), key=k))(m1, keys)
    return m1, q


def constant_twice(key):
    return constant_sample(1.0, (3,), key=key), constant_sample(2.0, (3,), key=key)


def two_layers(key):
    return Layer(4, key=key), Layer(4, key=key)
'''


def _rows(tmp_path: Path) -> list[int]:
    (tmp_path / "sampling.py").write_text(SAMPLING)
    (tmp_path / "models.py").write_text(MODELS)
    result = run_optlint("check", "models.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    return sorted(f["location"]["row"] if "location" in f else f["line"]
                  for f in json.loads(result.stdout))


def test_a_sampler_of_another_file_consumes_the_key(tmp_path: Path) -> None:
    # 8: the vmapped lambda after `m1` drew from the key, and in every row; 25: two layers.
    assert _rows(tmp_path) == [8, 8, 25]


def test_the_other_file_when_run(tmp_path: Path) -> None:
    (tmp_path / "sampling.py").write_text(SAMPLING)
    (tmp_path / "models.py").write_text(MODELS)
    sys.path.insert(0, str(tmp_path))
    try:
        namespace = runpy.run_path(str(tmp_path / "models.py"))
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("sampling", None)
    import jax

    m1, q = namespace["masses"](jax.random.PRNGKey(0))
    assert np.allclose(q / m1, q[0] / m1[0])  # every row drew the same uniform
    m1, q = namespace["masses_split"](jax.random.PRNGKey(0))
    assert not np.allclose(q / m1, q[0] / m1[0])
    first, second = namespace["two_layers"](jax.random.PRNGKey(0))
    assert np.array_equal(first.weight, second.weight)  # identical weights
