"""OPT020 on a draw whose shape is only given as a size (issue #25, generax nn/unet.py:468: the
demo's first draw `x` gives `Encoder(input_shape=x.shape[1:], key=key)` and later draws their
sizes, and its values reach only a call whose result is thrown away). A size is the same for
every key, so what the call builds or draws from it holds nothing of the draw: no result; nor
is the draw's shape returned. Values read still are. Each case also runs with JAX: the first draw made
from another key changes the result only where the finding stays."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import opt020_lines

SOURCE = '''\
import jax
import jax.numpy as jnp


class Encoder:
    def __init__(self, input_shape, key):
        self.weight = jax.random.normal(key, input_shape)


def first(key):
    return jax.random.normal(key, (4, 3))


def sizes_only(key):
    x = first(key)
    bias = jnp.zeros(x.shape[1:])
    noise = jax.random.uniform(jax.random.key(1), x.shape)
    encoder = Encoder(input_shape=x.shape[1:], key=key)
    return encoder.weight + bias + noise[0]


def values_read(key):
    x = first(key)
    encoder = Encoder(input_shape=x.shape[1:], key=key)
    return encoder.weight + x[0]


def shape_returned(key):
    x = first(key)
    encoder = Encoder(input_shape=x.shape[1:], key=key)
    return encoder.weight, x.shape
'''


def test_a_draw_whose_shape_is_only_a_size_is_no_draw(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sizes.py", SOURCE) == [24]


def test_the_cases_when_run(tmp_path: Path) -> None:
    (tmp_path / "sizes.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "sizes.py"))
    key, other = jax.random.key(0), jax.random.key(7)
    drawn = namespace["first"]
    for name, changes in (("sizes_only", False), ("values_read", True),
                          ("shape_returned", False)):
        function = namespace[name]
        written = _flat(function(key))
        function.__globals__["first"] = lambda _key: drawn(other)
        try:
            moved = _flat(function(key))
        finally:
            function.__globals__["first"] = drawn
        assert (not np.array_equal(written, moved)) == changes


def _flat(result: object) -> np.ndarray:
    """A function's result as one array: a tuple's items (a shape among them) in order."""
    if isinstance(result, tuple):
        return np.concatenate([np.ravel(np.asarray(item, dtype=float)) for item in result])
    return np.asarray(result)
