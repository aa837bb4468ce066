"""OPT020 on a batching transformation built and returned with a key given no axis (issue #25,
aimz `_sharding.py` before its fix): `partial(shard_map, in_specs=(rng_spec, P("d")))(f)`
returned through `jax.jit`, with `rng_spec = P()` on the default path and `f` splitting the
key, gives every shard the same keys whoever calls it. Run in /work/bench-venv (jax 0.10.2, two
host devices): the two shards' halves of the result were equal, and so were the rows of a
returned `jax.vmap(f, in_axes=(None, 0))`. Checked through the real command line, with look-alikes
that stay silent: the fixed body folding in the shard's index, a key split over the shards
(`P("d")`), a function that only passes the key on."""

from __future__ import annotations

from pathlib import Path

from conftest import opt020_lines

SHARDED = '''\
from functools import partial

import jax
from jax import lax, random, shard_map
from jax.sharding import PartitionSpec


def make_sampler(mesh, n, draws=False):
    def f(rng_key, x):
        rng_keys = rng_key if draws else random.split(rng_key, num=n)
        return x + random.normal(rng_keys[0], x.shape)

    if draws:
        rng_spec = PartitionSpec("d")
    else:
        rng_spec = PartitionSpec()
    return partial(jax.jit, static_argnames=["n"])(
        partial(shard_map, mesh=mesh, in_specs=(rng_spec, PartitionSpec("d")),
                out_specs=PartitionSpec("d"))(f))


def make_folded(mesh, n):
    def f(rng_key, x):
        rng_key = random.fold_in(rng_key, lax.axis_index("d"))
        return x + random.normal(random.split(rng_key, n)[0], x.shape)

    return shard_map(f, mesh=mesh, in_specs=(PartitionSpec(), PartitionSpec("d")),
                     out_specs=PartitionSpec("d"))


def make_split_over_shards(mesh):
    def f(rng_key, x):
        return x + random.normal(rng_key[0], x.shape)

    return shard_map(f, mesh=mesh, in_specs=(PartitionSpec("d"), PartitionSpec("d")),
                     out_specs=PartitionSpec("d"))


def make_noisy_rows():
    def f(key, x):
        return x + random.normal(key, x.shape)

    return jax.vmap(f, in_axes=(None, 0))


def make_passing_rows(model):
    def f(key, x):
        return model(x, key)

    return jax.vmap(f, in_axes=(None, 0))
'''


def test_a_returned_batching_that_gives_the_key_no_axis(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sharding.py", SHARDED) == [10, 41]
