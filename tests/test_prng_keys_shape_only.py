"""OPT020 and keys handed to a transformation that traces for shapes only (issue #25, what is
not reuse: a draw whose values reach nothing). maxdiffusion's checkpointer builds each component
abstractly, `nnx.eval_shape(factory, nnx.Rngs(jax.random.key(seed)))`, from one config seed:
shapes and dtypes, no random numbers. Silent there; reported when the same helper builds the
modules for real. The facts are measured by running JAX (and flax where installed): the checker
raises nothing for a draw after `eval_shape` of the same key, and the result holds no values."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import opt020_lines

ABSTRACT = '''\
import jax
from flax import nnx


class Linear(nnx.Module):
    def __init__(self, rngs):
        self.w = nnx.Param(jax.random.normal(rngs.params(), (2, 3)))


def component(factory, seed=0):
    return nnx.eval_shape(factory, nnx.Rngs(jax.random.key(seed)))


class Builder:
    def __init__(self, config):
        self.config = config

    def build_decoder(self):
        return component(Linear, self.config.seed)

    def build(self):
        encoder = component(Linear, self.config.seed)
        decoder = self.build_decoder()
        return encoder, decoder
'''

CONCRETE = ABSTRACT.replace(
    "    return nnx.eval_shape(factory, nnx.Rngs(jax.random.key(seed)))\n",
    "    return factory(nnx.Rngs(jax.random.key(seed)))\n")


def test_keys_given_to_eval_shape_are_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "builder.py", ABSTRACT) == []


def test_the_same_modules_built_for_real_are_reported(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "builder.py", CONCRETE) == [23]


def test_jax_eval_shape_draws_nothing() -> None:
    jax = pytest.importorskip("jax")
    key = jax.random.key(0)
    with jax.debug_key_reuse(True):
        shapes = jax.eval_shape(lambda k: jax.random.normal(k, (3,)), key)
        drawn = jax.random.normal(key, (3,))  # the checker raises nothing
    assert isinstance(shapes, jax.ShapeDtypeStruct)
    assert drawn.shape == shapes.shape


def test_nnx_eval_shape_draws_nothing() -> None:
    jax = pytest.importorskip("jax")
    nnx = pytest.importorskip("flax.nnx")
    key = jax.random.key(1)
    with jax.debug_key_reuse(True):
        abstract = nnx.eval_shape(lambda rngs: nnx.Linear(2, 3, rngs=rngs), nnx.Rngs(key))
        nnx.Linear(2, 3, rngs=nnx.Rngs(key))  # the checker raises nothing
    assert isinstance(abstract.kernel.get_value(), jax.ShapeDtypeStruct)
