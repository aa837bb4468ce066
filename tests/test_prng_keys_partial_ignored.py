"""OPT020 on a key split for a per-sample loss that never reads it (issue #25, transformer-flows
transformer_flow.py:1634: `evaluate(model, valid_key, x)` every epoch, where `batch_loss_fn`
splits the key and hands the parts through `eqx.filter_vmap(partial(single_loss_fn, model))`
to a `@typecheck`-decorated loss that ignores its `key`). A `partial` passes the call's
arguments on after the ones it binds, and a decorator name bound to `jaxtyped(typechecker=...)`
or to `lambda f: f` passes them unchanged, so the split keys reach no parameter that is read:
the split consumes nothing. Where the loss draws from its key the finding stays. Each case also
runs with JAX: the repeated key changes the evaluated loss only where the finding stays."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import jax.numpy as jnp
import pytest

from conftest import opt020_lines

SOURCE = '''\
import os
from functools import partial

import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jr
from jaxtyping import jaxtyped

if os.getenv("TYPECHECK"):
    typecheck = jaxtyped(typechecker=None)
else:
    typecheck = lambda _: _


@typecheck
def ignoring_loss(scale, key, x):
    return jnp.mean((scale * x) ** 2)


@typecheck
def noisy_loss(scale, key, x):
    return jnp.mean((scale * x + jr.normal(key, x.shape)) ** 2)


@eqx.filter_jit
def evaluate_ignoring(scale, key, xs):
    keys = jr.split(key, xs.shape[0])
    per_sample = partial(ignoring_loss, scale)
    return jnp.mean(eqx.filter_vmap(per_sample)(keys, xs))


@eqx.filter_jit
def evaluate_noisy(scale, key, xs):
    keys = jr.split(key, xs.shape[0])
    per_sample = partial(noisy_loss, scale)
    return jnp.mean(eqx.filter_vmap(per_sample)(keys, xs))


def train_ignoring(key, batches):
    valid_key, _ = jr.split(key)
    losses = []
    for xs in batches:
        losses.append(evaluate_ignoring(2.0, valid_key, xs))
    return losses


def train_noisy(key, batches):
    valid_key, _ = jr.split(key)
    losses = []
    for xs in batches:
        losses.append(evaluate_noisy(2.0, valid_key, xs))
    return losses
'''


def test_a_key_split_only_for_a_loss_that_ignores_it_is_not_consumed(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "partial_loss.py", SOURCE) == [52]


def test_the_cases_when_run(tmp_path: Path) -> None:
    (tmp_path / "partial_loss.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "partial_loss.py"))
    xs = jnp.arange(6.0).reshape(3, 2)
    for name, changes in (("evaluate_ignoring", False), ("evaluate_noisy", True)):
        evaluate = namespace[name]
        first = evaluate(2.0, jax.random.key(0), xs)
        other = evaluate(2.0, jax.random.key(1), xs)
        assert bool(first != other) == changes


def test_jaxtyped_passes_its_arguments_on() -> None:
    """The row `jaxtyping.jaxtyped` of PASSING_TRANSFORMS: used directly or as a factory, it
    calls the function once with the very objects given and returns its result."""
    jaxtyping = pytest.importorskip("jaxtyping")
    calls: list[tuple[object, object]] = []

    def f(key: jax.Array, x: jax.Array) -> jax.Array:
        calls.append((key, x))
        return jax.random.normal(key, x.shape) + x

    key, x = jax.random.key(3), jnp.arange(3.0)
    plain = f(key, x)
    direct = jaxtyping.jaxtyped(f, typechecker=None)(key, x)
    factory = jaxtyping.jaxtyped(typechecker=lambda fn: fn)(f)(key, x)
    assert len(calls) == 3 and all(k is key and v is x for k, v in calls)
    assert bool(jnp.array_equal(direct, plain)) and bool(jnp.array_equal(factory, plain))
