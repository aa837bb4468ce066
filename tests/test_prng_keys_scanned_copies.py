"""OPT020 on a `jax.lax.scan` / `lax.map` whose items are copies of one key (issue #25,
held-out set 6: the blackjax fork c456efe's MCLMC tuning built `jnp.array([rng_key] * n)` and
scanned over `xs=(outer_weights, keys)`, every step drawing its momentum from its item's key:
every step drew the same numbers). The step draws from its item as given or from a name it
unpacks the item into. Silent where the items are `jax.random.split(key, n)`. Run with JAX:
every step draws the same number."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from conftest import opt020_findings, opt020_lines

COPIES = '''\
import jax
import jax.numpy as jnp


def tune(key, init, weights):
    keys = jnp.array([key] * 5)

    def step(total, weight_and_key):
        weight, step_key = weight_and_key
        return total + weight * jax.random.normal(step_key), None

    return jax.lax.scan(step, init, xs=(weights, keys))[0]


def each(key):
    keys = jnp.repeat(key[None], 5, axis=0)
    return jax.lax.map(lambda k: k, keys), jax.lax.map(draw, keys)


def draw(k):
    return jax.random.normal(k)
'''

SPLIT = COPIES.replace("jnp.array([key] * 5)", "jax.random.split(key, 5)").replace(
    "jnp.repeat(key[None], 5, axis=0)", "jax.random.split(key, 5)")


def test_copies_as_a_loop_s_items(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "tune.py", COPIES) == [12, 17]
    messages = [f["message"] for f in opt020_findings(tmp_path, "tune2.py", COPIES)]
    assert all("copied unchanged" in message for message in messages)


def test_split_keys_are_silent(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "tune.py", SPLIT) == []


def test_every_step_draws_the_same_number() -> None:
    pytest.importorskip("jax")
    import jax
    import jax.numpy as jnp

    namespace: dict[str, Any] = {}
    exec(compile(COPIES, "tune.py", "exec"), namespace)
    _, drawn = namespace["each"](jax.random.PRNGKey(0))
    assert bool((drawn == drawn[0]).all())
    exec(compile(SPLIT, "tune.py", "exec"), namespace)
    _, drawn = namespace["each"](jax.random.PRNGKey(0))
    assert not bool((drawn == drawn[0]).all())
    assert float(namespace["tune"](jax.random.PRNGKey(0), 0.0, jnp.ones(5))) != 0.0
