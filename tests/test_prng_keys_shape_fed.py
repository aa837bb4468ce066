"""OPT020 on a draw whose value only feeds names read for their shape (issue #25, flowjax
test_numpyro.py:205: a flow drawn from a key, wrapped, and only `wrapped.batch_shape` checked,
before the key is split): a distribution's `batch_shape`/`event_shape` is a shape like `.shape`,
the same for every key, so the draw reaches no result. Where the wrapped values are read, the
reuse is still found. Each case also runs with JAX: the first draw made from another key leaves
the silent function's result unchanged and changes the found one's."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import opt020_lines

SOURCE = '''\
import jax
import jax.numpy as jnp


class Wrapped:
    def __init__(self, values, condition):
        self.values = values
        self.batch_shape = condition.shape[:-1]


def flow(key):
    return jax.random.normal(key, (3,))


def shape_only(key):
    params = flow(key)
    wrapped = Wrapped(params, jnp.ones((10, 3)))
    assert wrapped.batch_shape == (10,)
    key, subkey = jax.random.split(key)
    return jax.random.uniform(subkey, (2,))


def values_read(key):
    params = flow(key)
    wrapped = Wrapped(params, jnp.ones((10, 3)))
    assert wrapped.batch_shape == (10,)
    key, subkey = jax.random.split(key)
    return jax.random.uniform(subkey, (3,)) + wrapped.values
'''


def test_a_draw_feeding_only_shapes_is_no_draw(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "shapes.py", SOURCE) == [27]


def test_the_cases_when_run(tmp_path: Path) -> None:
    (tmp_path / "shapes.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "shapes.py"))
    key, other = jax.random.key(0), jax.random.key(1)
    for name, changes in (("shape_only", False), ("values_read", True)):
        function = namespace[name]
        written = np.asarray(function(key))
        drawn = namespace["flow"]
        # The first draw made from another key, the second as written.
        function.__globals__["flow"] = lambda _key, drawn=drawn: drawn(other)
        try:
            moved = np.asarray(function(key))
        finally:
            function.__globals__["flow"] = drawn
        assert (not np.array_equal(written, moved)) == changes
