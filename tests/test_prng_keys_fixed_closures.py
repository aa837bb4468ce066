"""OPT020 on a returned function that makes its key from its factory's seed (issue #25, an int
seed turned into a key inside a callee): stax-style `Dropout(rate, seed=0)` returns an
`apply_fun` that runs `PRNGKey(seed)` on every call, so every forward pass drops the same
units. Checked by the real command line, and run with real JAX: two calls give the same mask
(the reuse), or different masks when `apply_fun` is given a key (the look-alike)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

DROPOUT = '''\
import jax.numpy as jnp
from jax import random


def Dropout(rate, seed=0):
    def init_fun(rng, input_shape):
        return input_shape, ()

    def apply_fun(params, inputs, **kwargs):
        rng = random.PRNGKey(seed)
        keep = random.bernoulli(rng, 1.0 - rate, inputs.shape)
        return jnp.where(keep, inputs / (1.0 - rate), 0.0)

    return init_fun, apply_fun
'''

DROPOUT_KEYED = DROPOUT.replace(
    "    def apply_fun(params, inputs, **kwargs):\n        rng = random.PRNGKey(seed)\n",
    "    def apply_fun(params, inputs, rng, **kwargs):\n")


def _masks(source: str, keyed: bool) -> tuple[Any, Any]:
    pytest.importorskip("jax")
    import jax

    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    _, apply_fun = namespace["Dropout"](0.5)
    x = jax.numpy.ones(64)
    if keyed:
        first, second = jax.random.split(jax.random.key(0))
        return apply_fun((), x, first) != 0, apply_fun((), x, second) != 0
    return apply_fun((), x) != 0, apply_fun((), x) != 0


def test_a_returned_function_making_its_key_from_the_factorys_seed(tmp_path: Path) -> None:
    first, second = _masks(DROPOUT, keyed=False)
    assert bool((first == second).all())
    assert opt020_lines(tmp_path, "stax.py", DROPOUT) == [10]


def test_a_returned_function_given_a_key_is_silent(tmp_path: Path) -> None:
    first, second = _masks(DROPOUT_KEYED, keyed=True)
    assert not bool((first == second).all())
    assert opt020_lines(tmp_path, "stax.py", DROPOUT_KEYED) == []
