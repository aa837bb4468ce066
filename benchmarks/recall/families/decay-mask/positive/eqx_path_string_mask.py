# recall-case: positive
# rule: decay-mask
# source: https://github.com/marin-community/levanter/pull/405
# source: https://github.com/huggingface/transformers/pull/18273
# shown: HAZARD: the mask keeps decaying the Equinox LayerNorm weights (.ln1/.ln2): weight 1.0 -> 0.905
# style: Equinox transformer block, mask from tree_map_with_path on keystr, names from another codebase
import equinox as eqx
import jax
import jax.numpy as jnp
import optax

EXCLUDE = ("bias", "LayerNorm", "layer_norm")


class Block(eqx.Module):
    ln1: eqx.nn.LayerNorm
    attn: eqx.nn.Linear
    ln2: eqx.nn.LayerNorm
    mlp: eqx.nn.MLP

    def __init__(self, dim, key):
        k1, k2 = jax.random.split(key)
        self.ln1 = eqx.nn.LayerNorm(dim)
        self.attn = eqx.nn.Linear(dim, dim, key=k1)
        self.ln2 = eqx.nn.LayerNorm(dim)
        self.mlp = eqx.nn.MLP(dim, dim, 4 * dim, 1, key=k2)

    def __call__(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


def decay_mask(params):
    return jax.tree_util.tree_map_with_path(
        lambda path, _: not any(n in jax.tree_util.keystr(path) for n in EXCLUDE), params
    )


if __name__ == "__main__":
    model = Block(8, jax.random.key(0))
    params = eqx.filter(model, eqx.is_inexact_array)
    optim = optax.adamw(1e-2, weight_decay=0.1, mask=decay_mask(params))  # expect
    opt_state = optim.init(params)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    for _ in range(100):
        updates, opt_state = optim.update(zeros, opt_state, eqx.filter(model, eqx.is_inexact_array))
        model = eqx.apply_updates(model, updates)
    w = float(model.ln1.weight[0])
    print(f"HAZARD: the mask keeps decaying the Equinox LayerNorm weights (.ln1/.ln2): weight 1.0 -> {w:.3f}" if w < 1.0 else "OK")
