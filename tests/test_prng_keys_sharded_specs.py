"""OPT020 on a key replicated into `jax.shard_map` (issue #25, broadcast; axlearn 1432057): the
key's `in_specs` entry is `P(None)` (no axis split, like `P()`), or is read from a dict of specs
written out once (`specs["prng_key"]`); and the function mapped is nested in a method, drawing
through `self.layer.apply(..., rngs=...)` (the method's `self`, closed over). Checked by the real
command line; the sharded program is run on 2 host devices: the replicated key gives both
shards the same noise, one key per shard does not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import opt020_lines

SHARDED = '''\
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec


def body(x, key):
    return x + jax.random.normal(key, x.shape)


def noisy(x, key, mesh):
    specs = {"x": PartitionSpec("data"), "key": PartitionSpec(None)}
    sharded = jax.shard_map(body, mesh=mesh, in_specs=(specs["x"], specs["key"]),
                            out_specs=PartitionSpec("data"))
    return sharded(x, key)


if __name__ == "__main__":
    mesh = Mesh(np.array(jax.devices()[:2]), ("data",))
    out = noisy(jnp.zeros((2, 4)), jax.random.PRNGKey(0), mesh)
    print("same" if bool(jnp.all(out[0] == out[1])) else "different")
'''

PER_SHARD = SHARDED.replace('"key": PartitionSpec(None)', '"key": PartitionSpec("data")').replace(
    "jax.random.normal(key, x.shape)", "jax.random.normal(key[0], x.shape)").replace(
    "jax.random.PRNGKey(0), mesh)", "jax.random.split(jax.random.PRNGKey(0), 2), mesh)")

NESTED = '''\
import flax.linen as nn
import jax
from jax.sharding import PartitionSpec


class Drop(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dropout(0.5)(x, deterministic=False)


class Sharded:
    def __init__(self, mesh):
        self.layer = Drop()
        self.mesh = mesh
        self.variables = self.layer.init(jax.random.key(0), jax.numpy.ones(4))

    def __call__(self, x, dropout_key):
        def body(local_x, local_key):
            return self.layer.apply(self.variables, local_x, rngs={"dropout": local_key})

        sharded = jax.shard_map(body, mesh=self.mesh, in_specs=(PartitionSpec("data"), PartitionSpec()),
                                out_specs=PartitionSpec("data"))
        return sharded(x, dropout_key)
'''

NESTED_PER_SHARD = NESTED.replace("in_specs=(PartitionSpec(\"data\"), PartitionSpec())",
                                  "in_specs=(PartitionSpec(\"data\"), PartitionSpec(\"data\"))")


def _shards(tmp_path: Path, source: str) -> str:
    pytest.importorskip("jax")
    program = tmp_path / "program.py"
    program.write_text(source)
    env = {**os.environ, "JAX_PLATFORMS": "cpu"}
    done = subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                          env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_key_given_p_none_from_a_dict_of_specs_is_drawn_by_every_shard(tmp_path: Path) -> None:
    assert _shards(tmp_path, SHARDED) == "same"
    assert opt020_lines(tmp_path, "sharded.py", SHARDED) == [19]


def test_one_key_per_shard_is_silent(tmp_path: Path) -> None:
    assert _shards(tmp_path, PER_SHARD) == "different"
    assert opt020_lines(tmp_path, "sharded.py", PER_SHARD) == []


def test_a_function_nested_in_a_method_draws_through_the_methods_self(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "nested.py", NESTED) == [24]
    assert opt020_lines(tmp_path, "nested.py", NESTED_PER_SHARD) == []
