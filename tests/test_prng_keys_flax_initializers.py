"""OPT020 on an initializer of Flax's modules called in place with a key made from a literal
seed in a layer's `__call__` (issue #25, held-out set 5: disRNN_flax 317e332, whose Linear
layer drew its weights on every call from `initializers.truncated_normal(stddev)(
jax.random.key(42), shape)`, `from flax.nnx.nn import initializers`: every layer of one shape
got the same weights). The initializer factories of `flax.nnx.nn.initializers`,
`flax.nnx.initializers` and `flax.linen.initializers` are JAX's, and draw from the key they are
called with, as `jax.nn.initializers` ones do; `zeros_init()` and `constant(...)` draw nothing.
Run with JAX: two calls of one initializer given `key(42)` give the same weights."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import opt020_lines

LAYER = '''\
import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from flax.nnx.nn import initializers


class Linear(nnx.Module):
    def __init__(self, output_size: int):
        self.output_size = output_size

    def __call__(self, inputs):
        stddev = 1.0 / np.sqrt(inputs.shape[-1])
        w = initializers.truncated_normal(stddev=stddev)(jax.random.key(42),
                                                          (inputs.shape[-1], self.output_size))
        b = initializers.zeros_init()(jax.random.key(42), (self.output_size,))
        return jnp.dot(inputs, w) + b
'''

LINEN_LAYER = LAYER.replace("from flax.nnx.nn import initializers",
                            "import flax.linen as nn").replace("initializers.", "nn.initializers.")

# The key given to the layer, not one it makes.
KEY_GIVEN = LAYER.replace("def __call__(self, inputs):", "def __call__(self, inputs, key):").replace(
    "(jax.random.key(42),\n", "(key,\n")

# A constructor draws the weights once: a fixed key there picks them.
IN_CONSTRUCTOR = '''\
import jax
from flax import nnx
from flax.nnx.nn import initializers


class Linear(nnx.Module):
    def __init__(self, size: int):
        self.w = nnx.Param(initializers.lecun_normal()(jax.random.key(0), (size, size)))

    def __call__(self, inputs):
        return inputs @ self.w
'''


def test_a_flax_initializer_given_a_literal_key_in_a_layer_call(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "mlp.py", LAYER) == [14]


def test_a_linen_initializer_given_a_literal_key_in_a_layer_call(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "mlp.py", LINEN_LAYER) == [14]


@pytest.mark.parametrize("source", [KEY_GIVEN, IN_CONSTRUCTOR], ids=["key given", "constructor"])
def test_initializer_look_alikes_are_silent(tmp_path: Path, source: str) -> None:
    assert opt020_lines(tmp_path, "mlp.py", source) == []


def test_two_calls_draw_the_same_weights() -> None:
    pytest.importorskip("jax")
    import jax

    init = jax.nn.initializers.truncated_normal(stddev=0.5)  # what flax's modules re-export
    first = init(jax.random.key(42), (4, 4))
    assert bool((first == init(jax.random.key(42), (4, 4))).all())
    assert not bool((first == init(jax.random.key(43), (4, 4))).all())
