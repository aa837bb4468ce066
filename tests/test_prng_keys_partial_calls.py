"""OPT020 through a call of a `functools.partial` of a function of the file (`g = jax.jit(partial(f,
puzzle))` then `g(params, key)`): the call's arguments bind `f`'s parameters after the bound
ones, so where `f` draws from the parameter the key fills, the call consumes the key. The shape
of a held-out fix pair (JAxtar 36ce9ec: a scan splits `key`, then a jitted partial splits it
again). Each case is also run with JAX's key-reuse checker (jax 0.10.2)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import opt020_lines, raises_key_reuse

PARTIALS = '''\
from functools import partial

import jax


def draw(scale, params, key):
    return params + scale * jax.random.normal(key, (3,))


def shape_only(scale, params, key):
    return params + scale * key.shape[0]


def after_scan(params, key):
    jitted = jax.jit(partial(draw, 2.0))

    def step(key, _):
        key, subkey = jax.random.split(key)
        return key, jax.random.uniform(subkey)

    _, paths = jax.lax.scan(step, key, None, length=3)
    return paths.sum() + jitted(params, key)


def kept_scan_key(params, key):
    jitted = jax.jit(partial(draw, 2.0))

    def step(key, _):
        key, subkey = jax.random.split(key)
        return key, jax.random.uniform(subkey)

    key, paths = jax.lax.scan(step, key, None, length=3)
    return paths.sum() + jitted(params, key)


def in_a_loop(params, key):
    sample = partial(draw, 0.5)
    out = []
    while len(out) < 3:
        out.append(sample(params, key))
    return out


def split_in_the_loop(params, key):
    sample = partial(draw, 0.5)
    out = []
    while len(out) < 3:
        key, subkey = jax.random.split(key)
        out.append(sample(params, subkey))
    return out


def key_by_keyword(params, key):
    first = jax.random.normal(key, (3,))
    return first + partial(draw, 1.0)(params, key=key)


def not_drawn(params, key):
    first = jax.random.normal(key, (3,))
    return first + partial(shape_only, 1.0)(params, key)
'''


def test_a_partial_called_with_a_consumed_key_consumes_it(tmp_path: Path) -> None:
    # after_scan: the jitted partial after the scan; in_a_loop: every iteration;
    # key_by_keyword: the key given by keyword. Silent: the scan's key kept, a split per
    # iteration, a partial of a function that reads only the key's shape.
    assert opt020_lines(tmp_path, "partials.py", PARTIALS) == [22, 40, 55]


def _reuse(call: str) -> bool:
    return raises_key_reuse("import jax.numpy as jnp\n" + PARTIALS, call)


@pytest.mark.parametrize(("call", "expected"), [
    ("after_scan(jnp.zeros(3), jax.random.key(0))", True),
    ("kept_scan_key(jnp.zeros(3), jax.random.key(0))", False),
    ("in_a_loop(jnp.zeros(3), jax.random.key(0))", True),
    ("split_in_the_loop(jnp.zeros(3), jax.random.key(0))", False),
    ("key_by_keyword(jnp.zeros(3), jax.random.key(0))", True),
])
def test_running_shows_the_reuse(call: str, expected: bool) -> None:
    assert _reuse(call) is expected
