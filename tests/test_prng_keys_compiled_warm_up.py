"""OPT020 on a compiled function of the file called as a statement, its result thrown away (a
warm-up before timing: evojax's SpikingNeuralNetworksMNIST notebook, `run_sim(key, x, ws,
mem);`, FP by run). `jax.jit` returns what the function's body returns and keeps nothing else
(run below), so a draw that reaches only the returned value reaches nothing when the call's
result is thrown away, as for an uncompiled function. A `scan` body nested in it that unpacks
a `key` of its own from its carry reads its own name, not the enclosing function's. Printed,
the same call's draws reach a result, and the reuse is still found."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np
import pytest

from conftest import opt020_lines

SOURCE = '''\
import jax


def init(n):
    key = jax.random.PRNGKey(0)
    w = []
    for _ in range(2):
        sub, key = jax.random.split(key)
        w.append(jax.random.normal(sub, (n,)))
    return w


def simulate_once(key, x):
    def step(carry, _):
        key, total = carry
        sub, key = jax.random.split(key)
        total = total + jax.random.bernoulli(sub, 0.5, x.shape)
        return (key, total), total
    _, totals = jax.lax.scan(step, (key, x), None, length=3)
    return totals


simulate = jax.jit(simulate_once)


@jax.jit
def simulate_compiled(key, x):
    def step(carry, _):
        key, total = carry
        sub, key = jax.random.split(key)
        total = total + jax.random.bernoulli(sub, 0.5, x.shape)
        return (key, total), total
    _, totals = jax.lax.scan(step, (key, x), None, length=3)
    return totals


def warm_up():
    key = jax.random.PRNGKey(0)
    w = init(3)
    simulate_compiled(key, w[0])
    return w


def shown():
    key = jax.random.PRNGKey(0)
    w = init(3)
    print(simulate_compiled(key, w[0]))
    return w
'''


def test_a_compiled_warm_up_thrown_away_is_no_draw(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "warm.py", SOURCE) == [47]


@pytest.mark.parametrize("compiled", ["simulate", "simulate_compiled"])
def test_jit_returns_what_the_body_returns(tmp_path: Path, compiled: str) -> None:
    """`jax.jit(simulate_once)` and `simulate_once` decorated: both return the body's result."""
    (tmp_path / "warm.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "warm.py"))
    key, x = jax.random.PRNGKey(3), np.zeros(4, np.float32)
    np.testing.assert_array_equal(namespace["simulate_once"](key, x), namespace[compiled](key, x))


def test_the_warm_up_leaves_nothing_behind(tmp_path: Path) -> None:
    """What `warm_up` returns is `init`'s alone."""
    (tmp_path / "warm.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "warm.py"))
    for kept, alone in zip(namespace["warm_up"](), namespace["init"](3), strict=True):
        np.testing.assert_array_equal(kept, alone)
