"""OPT020 on a draw made in a loop body whose result the function reads only for its shape, in
checks (issue #25, numpyro test_distributions.py:4201: `sample(d)` from `key(0)` in each case
of a loop, both draws reaching only `assert batched.shape == (1, *single.shape)`). The loops
here carry state from step to step, where a literal seed's reuse is proven
(`key_literal_seeds.py`). The draw's
shape is the same for every key, so it reaches no result. Where the loop compares the values
the finding stays; where the draw's shape is kept (returned) it goes as well: issue #25's rule
counts values, and the shape is the same for every key. Each case also runs with
JAX: the helper drawing from another key changes the result only where the finding stays."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import opt020_lines

SOURCE = '''\
import jax


def sample(scale):
    return scale * jax.random.normal(jax.random.key(0), (3,))


def shapes_checked(scale, steps):
    for step in range(steps):
        single = sample(scale)
        batched = jax.vmap(sample)(scale[None])
        assert batched.shape == (1, *single.shape)
        scale = scale * 2.0
    return scale


def values_compared(scale, steps):
    same = []
    for step in range(steps):
        single = sample(scale)
        batched = jax.vmap(sample)(scale[None])
        same.append(bool((batched[0] == single).all()))
        scale = scale * 2.0
    return same


def shapes_kept(scale, steps):
    shapes = []
    for step in range(steps):
        single = sample(scale)
        if single.ndim == 1:
            shapes.append(single.shape)
        scale = scale * 2.0
    return shapes
'''


def test_a_draw_in_a_loop_read_only_for_checked_shapes_is_no_draw(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "loop_shapes.py", SOURCE) == [20]


def test_the_cases_when_run(tmp_path: Path) -> None:
    (tmp_path / "loop_shapes.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "loop_shapes.py"))
    scale = jax.numpy.float32(1.0)
    sample = namespace["sample"]
    seeds = iter(range(1, 100))

    def fresh(scale: jax.Array) -> jax.Array:  # a new key at every call
        return scale * jax.random.normal(jax.random.key(next(seeds)), (3,))

    for name, changes in (("shapes_checked", False), ("values_compared", True),
                          ("shapes_kept", False)):
        function = namespace[name]
        written = function(scale, 2)
        function.__globals__["sample"] = fresh
        try:
            other = function(scale, 2)
        finally:
            function.__globals__["sample"] = sample
        assert (not np.array_equal(np.asarray(written), np.asarray(other))) == changes
