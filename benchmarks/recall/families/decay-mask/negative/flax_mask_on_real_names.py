# recall-case: negative
# rule: decay-mask
# source: https://github.com/huggingface/transformers/pull/18273
# shown: OK LayerNorm scale 1.000, bias 0.000 after 100 zero-gradient steps; kernels decayed
# style: Flax compact model, mask on the leaf names Flax actually uses (bias, scale)
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax import traverse_util


class Block(nn.Module):
    dim: int

    @nn.compact
    def __call__(self, x):
        h = nn.LayerNorm()(x)
        h = nn.Dense(self.dim)(nn.gelu(nn.Dense(4 * self.dim)(h)))
        return nn.LayerNorm()(x + h)


def decay_mask_fn(params):
    flat = traverse_util.flatten_dict(params)
    return traverse_util.unflatten_dict({p: p[-1] not in ("bias", "scale") for p in flat})


if __name__ == "__main__":
    params = Block(8).init(jax.random.key(0), jnp.ones((2, 8)))
    tx = optax.adamw(1e-2, weight_decay=0.1, mask=decay_mask_fn)
    state = tx.init(params)
    k0 = params["params"]["Dense_0"]["kernel"]
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    for _ in range(100):
        updates, state = tx.update(zeros, state, params)
        params = optax.apply_updates(params, updates)
    scale = float(params["params"]["LayerNorm_0"]["scale"][0])
    assert scale == 1.0 and float(jnp.abs(params["params"]["Dense_0"]["kernel"]).sum()) < float(jnp.abs(k0).sum())
    print(f"OK LayerNorm scale {scale:.3f}, bias {float(params['params']['LayerNorm_0']['bias'][0]):.3f} after 100 zero-gradient steps; kernels decayed")
