# recall-case: positive
# rule: decay-mask
# source: https://github.com/huggingface/transformers/pull/18273
# source: https://github.com/huggingface/transformers/issues/42754
# shown: HAZARD: ln_1, ln_2, ln_f scales decayed: min scale 0.905 (mask excludes ('layer_norm', 'scale') only)
# style: trainer class, GPT-style Flax model with ln_1/ln_2/ln_f names, mask listing other names
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax import traverse_util

NO_DECAY = ("bias", ("layer_norm", "scale"), ("final_layer_norm", "scale"))


class GPTBlock(nn.Module):
    dim: int

    @nn.compact
    def __call__(self, x):
        x = x + nn.Dense(self.dim, name="attn_proj")(nn.LayerNorm(name="ln_1")(x))
        return x + nn.Dense(self.dim, name="mlp_proj")(nn.LayerNorm(name="ln_2")(x))


class TinyGPT(nn.Module):
    dim: int = 8

    @nn.compact
    def __call__(self, x):
        x = GPTBlock(self.dim, name="h_0")(x)
        return nn.LayerNorm(name="ln_f")(x)


def _decays(path):
    for rule in NO_DECAY:
        if isinstance(rule, str) and path[-1] == rule:
            return False
        if isinstance(rule, tuple) and path[-len(rule):] == rule:
            return False
    return True


class Trainer:
    def __init__(self, model, lr=1e-2, weight_decay=0.1):
        self.model = model
        self.lr = lr
        self.weight_decay = weight_decay

    def init(self, key, x):
        self.params = self.model.init(key, x)
        flat = traverse_util.flatten_dict(self.params)
        mask = traverse_util.unflatten_dict({p: _decays(p) for p in flat})
        self.tx = optax.adamw(self.lr, weight_decay=self.weight_decay, mask=mask)  # expect
        self.state = self.tx.init(self.params)

    def apply_grads(self, grads):
        updates, self.state = self.tx.update(grads, self.state, self.params)
        self.params = optax.apply_updates(self.params, updates)


if __name__ == "__main__":
    t = Trainer(TinyGPT())
    t.init(jax.random.key(0), jnp.ones((2, 8)))
    zeros = jax.tree_util.tree_map(jnp.zeros_like, t.params)
    for _ in range(100):
        t.apply_grads(zeros)
    flat = traverse_util.flatten_dict(t.params)
    scales = {p[-2]: float(v.min()) for p, v in flat.items() if p[-1] == "scale"}
    print(f"HAZARD: {', '.join(sorted(scales))} scales decayed: min scale {min(scales.values()):.3f} "
          f"(mask excludes ('layer_norm', 'scale') only)" if min(scales.values()) < 1.0 else "OK")
