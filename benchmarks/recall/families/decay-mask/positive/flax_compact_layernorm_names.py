# recall-case: positive
# rule: decay-mask
# source: https://github.com/huggingface/transformers/issues/11936
# source: https://github.com/huggingface/transformers/pull/18273
# shown: HAZARD: mask decays 2 LayerNorm scale(s); scale 1.0 -> 0.905 after 100 zero-gradient steps
# style: Flax linen compact model (LayerNorm_0 auto names), decay_mask_fn copied from a BERT-style script
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
    flat_mask = {path: (path[-1] != "bias" and path[-2:] != ("LayerNorm", "scale")) for path in flat}
    return traverse_util.unflatten_dict(flat_mask)


def create_optimizer(lr, weight_decay):
    return optax.adamw(lr, weight_decay=weight_decay, mask=decay_mask_fn)  # expect


if __name__ == "__main__":
    model = Block(8)
    params = model.init(jax.random.key(0), jnp.ones((2, 8)))
    tx = create_optimizer(1e-2, 0.1)
    state = tx.init(params)
    mask = decay_mask_fn(params)
    ln_decayed = [p for p, m in traverse_util.flatten_dict(mask).items() if m and p[-1] == "scale"]
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    for _ in range(100):
        updates, state = tx.update(zeros, state, params)
        params = optax.apply_updates(params, updates)
    scale = float(params["params"]["LayerNorm_0"]["scale"][0])
    print(f"HAZARD: mask decays {len(ln_decayed)} LayerNorm scale(s); scale 1.0 -> {scale:.3f} after 100 zero-gradient steps"
          if ln_decayed else "OK")
