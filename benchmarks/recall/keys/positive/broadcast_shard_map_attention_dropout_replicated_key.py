# recall-case: positive
# rule: OPT020
# class: broadcast
# source: https://github.com/apple/axlearn/commit/1432057ab9c4775092ce9db48f0be146537d6852
# shown: HAZARD: both batch shards drew the same dropout mask (one key replicated into shard_map with PartitionSpec())
# style: Flax linen attention-output dropout run under a manually partitioned shard_map over 2 host CPU devices
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"

import flax.linen as nn  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, PartitionSpec  # noqa: E402


class AttentionOutputDropout(nn.Module):
    rate: float

    @nn.compact
    def __call__(self, probs, deterministic):
        return nn.Dropout(self.rate)(probs, deterministic=deterministic)


class ShardedAttention:
    def __init__(self, rate, mesh):
        self.layer = AttentionOutputDropout(rate)
        self.mesh = mesh
        self.variables = self.layer.init(jax.random.key(0), jnp.ones((1, 4, 4)), deterministic=True)

    def __call__(self, probs, dropout_key):
        def body(local_probs, local_key):
            return self.layer.apply(self.variables, local_probs, deterministic=False, rngs={"dropout": local_key})

        in_specs = {
            "probs": PartitionSpec("data"),
            "prng_key": PartitionSpec(),  # expect
        }
        sharded = jax.shard_map(
            body,
            mesh=self.mesh,
            in_specs=(in_specs["probs"], in_specs["prng_key"]),
            out_specs=PartitionSpec("data"),
        )
        return sharded(probs, dropout_key)  # expect


if __name__ == "__main__":
    mesh = Mesh(np.array(jax.devices()[:2]), ("data",))
    attention = ShardedAttention(rate=0.5, mesh=mesh)
    out = attention(jnp.ones((2, 4, 4)), jax.random.key(1))
    if bool(jnp.all((out[0] == 0) == (out[1] == 0))):
        print("HAZARD: both batch shards drew the same dropout mask from the replicated key")
