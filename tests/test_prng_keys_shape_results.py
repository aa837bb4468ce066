"""OPT020 on a draw that reaches only its own shape (issue #25's labelling rule: both draws must
reach a result; blind negative `neg_trace_for_shapes_then_init_same_key.py` line 27): a helper
traces a model for its sites' shapes (`{name: value.shape for name, value in trace.items()}`),
then the same key draws the initial values. A draw's shape is the same for every key, so the
first draw reaches nothing, returned or not. Where the helper keeps values, or the shape of
something computed from the draw (`x[x > 0]`: its shape follows the values), the finding
stays. Each case also runs with JAX: the first draw made from another key changes the result
only where the finding stays."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import opt020_lines

SOURCE = '''\
import jax


def model(key):
    return {"loc": jax.random.normal(key, (3,)), "z": jax.random.normal(key, (4, 3))}


def site_shapes(key):
    trace = model(key)
    return {name: value.shape for name, value in trace.items()}


def sizes_listed(key):
    draws = [jax.random.normal(key, (2,)), jax.random.normal(key, (5,))]
    return [draw.shape[0] for draw in draws]


def site_sums(key):
    trace = model(key)
    return {name: value.sum() for name, value in trace.items()}


def kept_count(key):
    x = model(key)["z"]
    kept = x[x > 0]
    return kept.shape


def traced(key):
    shapes = site_shapes(key)
    return shapes, jax.random.split(key, 2)


def listed(key):
    sizes = sizes_listed(key)
    return sizes, jax.random.split(key, 2)


def summed(key):
    sums = site_sums(key)
    return sums, jax.random.split(key, 2)


def counted(key):
    count = kept_count(key)
    return count, jax.random.split(key, 2)
'''


def test_a_draw_reaching_only_its_shape_is_no_draw(tmp_path: Path) -> None:
    # `model` draws twice from one key, both values returned; `sizes_listed`'s two draws
    # reach only their shapes, and `traced` and `listed` draw their first key only so.
    assert opt020_lines(tmp_path, "shapes.py", SOURCE) == [5, 41, 46]


def test_the_cases_when_run(tmp_path: Path) -> None:
    (tmp_path / "shapes.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "shapes.py"))
    key, other = jax.random.key(0), jax.random.key(7)
    model, normal = namespace["model"], jax.random.normal
    for name, changes in (("traced", False), ("listed", False), ("summed", True),
                          ("counted", True)):
        function = namespace[name]
        written = _flat(function(key))
        # The helper's draws from another key: the split keys stay those of `key`.
        namespace["model"].__globals__["model"] = lambda _key: model(other)
        jax.random.normal = lambda _key, *args, **kwargs: normal(other, *args, **kwargs)
        try:
            moved = _flat(function(key))
        finally:
            namespace["model"].__globals__["model"] = model
            jax.random.normal = normal
        assert (not np.array_equal(written, moved)) == changes, name


def _flat(result: object) -> np.ndarray:
    """A result as one array of numbers: a mapping's values, a sequence's items, keys' data."""
    if isinstance(result, dict):
        return _flat(list(result.values()))
    if isinstance(result, (tuple, list)):
        return np.concatenate([_flat(item) for item in result]) if result else np.zeros(0)
    if isinstance(result, jax.Array) and jax.dtypes.issubdtype(result.dtype,
                                                               jax.dtypes.prng_key):
        return np.ravel(np.asarray(jax.random.key_data(result), dtype=float))
    return np.ravel(np.asarray(result, dtype=float))
