"""OPT020 where JAX's samplers are called by their private module or from inside it (issue #25,
a JAX fix commit: Student's t drew its normal and its gamma from one key in `random.py`). A
module importing `jax._src.random.normal` calls `jax.random.normal`; in JAX's own `random.py`,
its module-level `normal` is that sampler. The same file elsewhere is a project of its own,
whose `normal` draws nothing the analysis can see."""

from __future__ import annotations

import json
import runpy
from pathlib import Path

import numpy as np

from conftest import run_optlint_in_process as run_optlint

OWN_MODULE = '''\
from jax._src import prng


def _split(key, num=2):
    return prng.random_split(key, shape=(num,))


def normal(key, shape=()):
    return prng.random_bits(key, bit_width=32, shape=shape)


def gamma(key, a, shape=()):
    return prng.random_bits(key, bit_width=32, shape=shape) * a


def t_reused(key, df, shape):
    key_n, key_g = _split(key)
    n = normal(key_n, shape)
    g = gamma(key_n, df / 2, shape)
    return n / g


def t_split(key, df, shape):
    key_n, key_g = _split(key)
    n = normal(key_n, shape)
    g = gamma(key_g, df / 2, shape)
    return n / g
'''

PRIVATE_IMPORT = '''\
import jax
from jax._src.random import normal


def noisy_pair(seed):
    key = jax.random.PRNGKey(seed)
    first = normal(key, (3,))
    second = normal(key, (3,))
    return first, second
'''


def _rows(tmp_path: Path, name: str, source: str) -> list[int]:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(source)
    result = run_optlint("check", name, "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    return sorted(f["location"]["row"] if "location" in f else f["line"]
                  for f in json.loads(result.stdout))


def test_jax_own_random_module_calls_its_samplers(tmp_path: Path) -> None:
    assert _rows(tmp_path, "jax/_src/random.py", OWN_MODULE) == [19]


def test_the_same_file_outside_jax_is_not_jax(tmp_path: Path) -> None:
    assert _rows(tmp_path, "mylib/random.py", OWN_MODULE) == []


def test_a_sampler_imported_from_jax_private_module(tmp_path: Path) -> None:
    assert _rows(tmp_path, "noise.py", PRIVATE_IMPORT) == [8]
    (tmp_path / "run_noise.py").write_text(PRIVATE_IMPORT)
    first, second = runpy.run_path(str(tmp_path / "run_noise.py"))["noisy_pair"](0)
    assert np.array_equal(first, second)  # identical values: a reuse
