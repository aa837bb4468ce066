"""OPT020 on a choice between two draws of one key (issue #25, Kinetix ued/util.py:94:
`jax.lax.select(n <= 3, on_triangle(rng, v), on_rectangle(rng, v))`): the result keeps, element
by element, one of the two, so they are drawn as the branches of an `if`. A key drawn there and
again after the choice is still reported. The cases also run with JAX."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import jax.numpy as jnp
import pytest

from conftest import opt020_lines

SOURCE = '''\
import jax
import jax.numpy as jnp


def on_triangle(rng, v):
    return jax.random.uniform(rng, (4,)) * v


def on_rectangle(rng, v):
    return jax.random.uniform(rng, (4,)) + v


def chosen(rng, v, n):
    return jax.lax.select(n <= 3, on_triangle(rng, v), on_rectangle(rng, v))


def chosen_per_element(rng, v, mask):
    return jnp.where(mask, on_triangle(rng, v), on_rectangle(rng, v))


def chosen_of_three(rng, which):
    return jax.lax.select_n(which, jax.random.uniform(rng, (4,)), jax.random.normal(rng, (4,)),
                            jnp.zeros(4))


def added(rng, v):
    return on_triangle(rng, v) + on_rectangle(rng, v)


def chosen_then_drawn(rng, v, n):
    point = jax.lax.select(n <= 3, on_triangle(rng, v), jnp.zeros(4))
    return point, jax.random.uniform(rng, (4,))
'''


def test_a_choice_between_draws_of_one_key_is_no_reuse(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "choices.py", SOURCE) == [27, 32]


def test_the_cases_when_run(tmp_path: Path) -> None:
    (tmp_path / "choices.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "choices.py"))
    key = jax.random.key(0)
    triangle = namespace["on_triangle"](key, 2.0)
    rectangle = namespace["on_rectangle"](key, 2.0)
    # A scalar test keeps one draw whole.
    assert namespace["chosen"](key, 2.0, 3).tolist() == triangle.tolist()
    assert namespace["chosen"](key, 2.0, 4).tolist() == rectangle.tolist()
    # An array test keeps each element from one draw at its own place: the result holds the
    # draw's bits once each (the same as one uniform draw from the key, element by element).
    mask = jnp.array([True, False, True, False])
    mixed = namespace["chosen_per_element"](key, 2.0, mask)
    uniform = jax.random.uniform(key, (4,))
    assert jnp.allclose(jnp.where(mask, mixed / 2.0, mixed - 2.0), uniform)
    assert len(set(uniform.tolist())) == 4
    # Drawn twice, the checker raises; the sum uses both draws.
    with jax.debug_key_reuse(True), pytest.raises(Exception, match="consumed"):
        namespace["added"](jax.random.key(1), 2.0)
    # Drawn in the choice and after it: the same numbers twice in what is returned.
    point, again = namespace["chosen_then_drawn"](key, 1.0, 3)
    assert point.tolist() == again.tolist()
