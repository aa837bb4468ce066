# recall-case: negative
# rule: OPT020
# class: broadcast
# source: https://github.com/apple/axlearn/commit/1432057ab9c4775092ce9db48f0be146537d6852
# shown: runs with jax_debug_key_reuse on; the dropout key is split into one key per device and sharded like the batch, so the shards draw different masks; prints OK
# style: Flax linen attention-output dropout run under a manually partitioned shard_map over 2 host CPU devices
import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=2"

import flax.linen as nn  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, PartitionSpec  # noqa: E402

jax.config.update("jax_debug_key_reuse", True)


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
        num_devices = self.mesh.shape["data"]
        device_keys = jax.random.split(dropout_key, num_devices)

        def body(local_probs, local_keys):
            return self.layer.apply(self.variables, local_probs, deterministic=False, rngs={"dropout": local_keys[0]})

        sharded = jax.shard_map(
            body,
            mesh=self.mesh,
            in_specs=(PartitionSpec("data"), PartitionSpec("data")),
            out_specs=PartitionSpec("data"),
        )
        return sharded(probs, device_keys)


if __name__ == "__main__":
    mesh = Mesh(np.array(jax.devices()[:2]), ("data",))
    attention = ShardedAttention(rate=0.5, mesh=mesh)
    out = attention(jnp.ones((2, 4, 4)), jax.random.key(1))
    assert not bool(jnp.all((out[0] == 0) == (out[1] == 0)))
    print("OK")
