"""OPT020 on keys fixed while `jax.jit` traces (issue #25, closures and calls): Python code in
a compiled function runs once, so a key made there from NumPy's random numbers, or taken from a
key stream object that advances in Python, is the same in every later call. Checked by the real
command line, and run with real JAX: the compiled function returns the same draw on every call
(the reuse), or a new one when it is given a key (the look-alike)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_lines

STREAM = '''\
import jax
import numpy as np


class KeyStream:
    def __init__(self, seed):
        self._key = jax.random.key(seed)

    def next_key(self):
        self._key, subkey = jax.random.split(self._key)
        return subkey


stream = KeyStream(0)


@jax.jit
def augment(batch):
    return batch + jax.random.normal(stream.next_key(), batch.shape)


class Likelihood:
    def __init__(self):
        self.compiled = jax.jit(self.evaluate)

    def integral(self, scale):
        key = jax.random.key(np.random.randint(0, 2**31 - 1))
        return scale * jax.random.normal(key, (64,)).mean()

    def evaluate(self, scale):
        return self.integral(scale) - scale
'''

# The look-alike: the stream is advanced outside, and the compiled function is given the key.
STREAM_OUTSIDE = STREAM.replace(
    "def augment(batch):\n    return batch + jax.random.normal(stream.next_key(), batch.shape)",
    "def augment(batch, key):\n    return batch + jax.random.normal(key, batch.shape)").replace(
    "    def integral(self, scale):\n        key = jax.random.key(np.random.randint(0, 2**31 - 1))",
    "    def integral(self, scale, key):").replace(
    "    def evaluate(self, scale):\n        return self.integral(scale) - scale",
    "    def evaluate(self, scale, key):\n        return self.integral(scale, key) - scale")


def _program(source: str) -> dict[str, Any]:
    pytest.importorskip("jax")
    namespace: dict[str, Any] = {"__name__": "program"}
    exec(compile(source, "program.py", "exec"), namespace)
    return namespace


def test_keys_fixed_at_trace_time(tmp_path: Path) -> None:
    import jax.numpy as jnp

    program = _program(STREAM)
    batch = jnp.zeros(3)
    assert bool((program["augment"](batch) == program["augment"](batch)).all())
    likelihood = program["Likelihood"]()
    assert likelihood.compiled(1.0) == likelihood.compiled(1.0)
    assert opt020_lines(tmp_path, "augment.py", STREAM) == [19, 28]


def test_keys_given_to_the_compiled_function_are_silent(tmp_path: Path) -> None:
    import jax

    program = _program(STREAM_OUTSIDE)
    batch = jax.numpy.zeros(3)
    stream = program["stream"]
    assert not bool((program["augment"](batch, stream.next_key())
                     == program["augment"](batch, stream.next_key())).all())
    assert opt020_lines(tmp_path, "augment.py", STREAM_OUTSIDE) == []
