"""OPT020 on keys broadcast by a batching transformation (issue #25, class 3): `in_axes` held
by a name or with a repeated `None` tail, a key bound by the `functools.partial` that `vmap`
maps, a key batch mapped to a function drawing from each row (consumed once, so broadcasting it
further gives every outer row the same keys), and a differentiated lambda drawing from a key
of its function. Each reuse beside a correct look-alike that stays silent; the reuses are run
under JAX's own key-reuse checker."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import opt020_lines

AXES_BY_NAME = '''\
import jax


def noisy(x, key):
    return x + jax.random.normal(key, x.shape)


def broadcast(xs, key):
    axes = (0, None)
    return jax.vmap(noisy, in_axes=axes)(xs, key)


def repeated_tail(xs, scale, shift, key):
    return jax.vmap(lambda x, s, t, k: noisy(x * s + t, k), in_axes=(0, *(None,) * 3))(
        xs, scale, shift, key)


def mapped(xs, keys):
    axes = (0, 0)
    return jax.vmap(noisy, in_axes=axes)(xs, keys)
'''


def test_in_axes_held_by_a_name(tmp_path: Path) -> None:
    """`axes = (0, None)` then `in_axes=axes`: the key is broadcast; `(0, 0)` maps it. The
    mapped lambda given the key under a repeated `None` tail draws from it in every row too
    (its parameters are bound to the rows' arguments as a def's are)."""
    assert opt020_lines(tmp_path, "axes.py", AXES_BY_NAME) == [10, 14]


PARTIAL = '''\
from functools import partial

import jax


def noisy(x, key, scale=1.0):
    return x + scale * jax.random.normal(key, x.shape)


def bound_by_name(xs, key):
    f = partial(noisy, key=key)
    return jax.vmap(f)(xs)


def bound_inline(xs, key):
    return jax.vmap(partial(noisy, key=key))(xs)


def scale_bound(xs, keys):
    return jax.vmap(partial(noisy, scale=2.0))(xs, keys)
'''


def test_a_key_bound_by_the_mapped_partial(tmp_path: Path) -> None:
    """What `partial` binds reaches every row; a partial binding only a scale does not."""
    assert opt020_lines(tmp_path, "partial.py", PARTIAL) == [12, 16]


GIVEN_MODEL = '''\
from functools import partial

import equinox as eqx
import jax


class Net(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, key):
        self.linear = eqx.nn.Linear(4, 4, key=key)
        self.dropout = eqx.nn.Dropout(0.5)

    def __call__(self, x, *, key):
        return self.dropout(self.linear(x), key=key)


def loss(model, xs, key):
    model = partial(model, key=key)
    return jax.vmap(model)(xs).sum()


def train(model, xs, key):
    params, static = eqx.partition(model, eqx.is_inexact_array)
    return jax.grad(lambda p: loss(eqx.combine(p, static), xs, key))(params)


if __name__ == "__main__":
    train(Net(jax.random.key(0)), jax.numpy.ones((3, 4)), jax.random.key(1))
'''


def test_a_model_given_through_partition_and_combine(tmp_path: Path) -> None:
    """`loss` is given `eqx.combine(p, static)`, `static` split off the `Net` its caller
    gives: every row of `vmap(partial(model, key=key))` draws the same dropout mask, proven
    (not a `--preview` finding)."""
    assert opt020_lines(tmp_path, "given.py", GIVEN_MODEL) == [21]
    assert opt020_lines(tmp_path, "eval.py", GIVEN_MODEL.replace(
        "return self.dropout(self.linear(x), key=key)", "return self.linear(x)")) == []


MAPPED_BATCH = '''\
import jax


def one(x, key):
    return x + jax.random.normal(key, x.shape)


def per_key(x, keys):
    return jax.vmap(one, in_axes=(None, 0))(x, keys)


def every_system(xs, keys):
    return jax.vmap(per_key, in_axes=(0, None))(xs, keys)


def own_keys(xs, keys):
    return jax.vmap(per_key)(xs, keys)


def twice(x, keys):
    return per_key(x, keys), per_key(x + 1.0, keys)
'''


def test_a_mapped_key_batch_is_consumed_once(tmp_path: Path) -> None:
    """`per_key` draws from each of its keys: broadcast to every system, each system draws
    the same; given one batch per system, each its own; given twice, the same twice."""
    assert opt020_lines(tmp_path, "batch.py", MAPPED_BATCH) == [13, 21]


DIFFERENTIATED_LAMBDA = '''\
import jax


def loss(p, x, key):
    return ((p * x + jax.random.normal(key, x.shape)) ** 2).sum()


def step(p, x, key):
    g = jax.grad(lambda q: loss(q, x, key))(p)
    return p - 0.1 * g, loss(p, x, key)


def fresh(p, x, key):
    grad_key, eval_key = jax.random.split(key)
    g = jax.grad(lambda q: loss(q, x, grad_key))(p)
    return p - 0.1 * g, loss(p, x, eval_key)
'''


def test_a_differentiated_lambda_draws_once(tmp_path: Path) -> None:
    """`jax.grad(lambda q: loss(q, x, key))(p)` draws from `key` where it is called."""
    assert opt020_lines(tmp_path, "step.py", DIFFERENTIATED_LAMBDA) == [10]


def _hazard(source: str, call: str) -> bool:
    """Whether running `call` after `source` shows the reuse: JAX's key-reuse checker raises,
    or every row of the result is the same."""
    jax = pytest.importorskip("jax")
    namespace: dict = {"__name__": "program"}
    exec(compile("import jax\nimport jax.numpy as jnp\n" + source, "program.py", "exec"),
         namespace)
    try:
        with jax.debug_key_reuse(True):
            result = eval(call, namespace)
    except jax.errors.KeyReuseError:
        return True
    return bool(result.ndim > 1 and (result == result[0]).all())


@pytest.mark.parametrize(("source", "call", "expected"), [
    (AXES_BY_NAME, "broadcast(jnp.zeros((3, 2)), jax.random.key(0))", True),
    (AXES_BY_NAME, "mapped(jnp.zeros((3, 2)), jax.random.split(jax.random.key(0), 3))", False),
    (PARTIAL, "bound_inline(jnp.zeros((3, 2)), jax.random.key(0))", True),
    (PARTIAL, "scale_bound(jnp.zeros((3, 2)), jax.random.split(jax.random.key(0), 3))", False),
    (MAPPED_BATCH, "every_system(jnp.zeros((2, 3)), jax.random.split(jax.random.key(0), 4))",
     True),
    (MAPPED_BATCH, "own_keys(jnp.zeros((2, 3)), "
                   "jax.random.split(jax.random.key(0), 8).reshape(2, 4))", False),
    (MAPPED_BATCH, "twice(jnp.zeros(3), jax.random.split(jax.random.key(0), 4))[0]", True),
    (DIFFERENTIATED_LAMBDA, "step(1.0, jnp.ones(3), jax.random.key(0))[0]", True),
    (DIFFERENTIATED_LAMBDA, "fresh(1.0, jnp.ones(3), jax.random.key(0))[0]", False),
])
def test_running_shows_the_reuse(source: str, call: str, expected: bool) -> None:
    """The reuses above raise under `jax_debug_key_reuse` or give every row the same numbers
    (jax 0.10.2); the look-alikes do neither."""
    assert _hazard(source, call) is expected


DECORATED_AND_SHARDED = '''\
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


@partial(jax.vmap, in_axes=(0, None))
def decorated(x, key):
    return x + jax.random.normal(key, x.shape)


def use_decorated(xs, key):
    return decorated(xs, key)


def noisy(x, key):
    return x + jax.random.normal(key, x.shape)


def stacked(xs, key):
    return jax.vmap(noisy)(xs, jnp.stack([key] * xs.shape[0]))


def per_device(x, key):
    key = jax.random.fold_in(key, jax.lax.axis_index("x"))
    return x + jax.random.normal(key, x.shape)


def sharded(mesh, xs, key):
    return jax.shard_map(noisy, mesh=mesh, in_specs=(P("x"), P()), out_specs=P("x"))(xs, key)


def sharded_keys(mesh, xs, keys):
    return jax.shard_map(noisy, mesh=mesh, in_specs=(P("x"), P("x")), out_specs=P("x"))(
        xs, keys)


def sharded_folded(mesh, xs, key):
    return jax.shard_map(per_device, mesh=mesh, in_specs=(P("x"), P()),
                         out_specs=P("x"))(xs, key)
'''


def test_decorated_stacked_and_sharded(tmp_path: Path) -> None:
    """`@partial(jax.vmap, in_axes=(0, None))`, `jnp.stack([key] * n)` and a key given
    `P()` in `shard_map`'s specs reach every row or shard; keys sharded with `P("x")`, or a
    key folded with the shard's index, do not."""
    assert opt020_lines(tmp_path, "dec.py", DECORATED_AND_SHARDED) == [14, 22, 31]


@pytest.mark.parametrize(("call", "expected"), [
    ("use_decorated(jnp.zeros((3, 2)), jax.random.key(0))", True),
    ("stacked(jnp.zeros((3, 2)), jax.random.key(0))", True),
])
def test_decorated_and_stacked_rows_are_the_same(call: str, expected: bool) -> None:
    assert _hazard(DECORATED_AND_SHARDED, call) is expected


HELD_BY_THE_OBJECT = '''\
import jax


class Sampler:
    def __init__(self, key):
        self.key = key

    def sample(self, x):
        return x + jax.random.normal(self.key, x.shape)

    def batch(self, xs):
        return jax.vmap(self.sample)(xs)

    def scaled(self, x):
        return 2.0 * x

    def batch_scaled(self, xs):
        return jax.vmap(self.scaled)(xs)
'''


def test_a_vmapped_method_drawing_from_the_key_its_object_holds(tmp_path: Path) -> None:
    """The object is not batched: every row of `vmap(self.sample)` draws from `self.key`."""
    assert opt020_lines(tmp_path, "held.py", HELD_BY_THE_OBJECT) == [12]


def test_a_vmapped_method_rows_are_the_same() -> None:
    assert _hazard(HELD_BY_THE_OBJECT, "Sampler(jax.random.key(0)).batch(jnp.zeros((3, 2)))")


LOOP_PARTIALS = '''\
from functools import partial

import jax


def draw(x, key):
    return x + jax.random.normal(key, x.shape)


def mapped(xs, key):
    return jax.lax.map(partial(draw, key=key), xs)


def scanned(xs, key):
    def step(c, x, key):
        return c, x + jax.random.normal(key, x.shape)

    return jax.lax.scan(partial(step, key=key), 0.0, xs)[1]


def own_keys(xs, keys):
    return jax.lax.map(lambda args: draw(*args), (xs, keys))
'''


def test_a_loop_body_bound_by_partial(tmp_path: Path) -> None:
    """`lax.map(partial(draw, key=key), xs)`: every step draws from the bound key."""
    assert opt020_lines(tmp_path, "loops.py", LOOP_PARTIALS) == [11, 18]


@pytest.mark.parametrize(("call", "expected"), [
    ("mapped(jnp.zeros((3, 2)), jax.random.key(0))", True),
    ("scanned(jnp.zeros((3, 2)), jax.random.key(0))", True),
    ("own_keys(jnp.zeros((3, 2)), jax.random.split(jax.random.key(0), 3))", False),
])
def test_loop_partial_steps_are_the_same(call: str, expected: bool) -> None:
    assert _hazard(LOOP_PARTIALS, call) is expected
