# recall-case: negative
# rule: decay-mask
# source: https://github.com/marin-community/levanter/pull/405
# shown: OK LayerNorm weights 1.000, biases kept; linear weights decayed
# style: Equinox block, mask built with eqx.tree_at / is_instance checks on the model's own structure
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


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
    mask = jax.tree_util.tree_map(lambda _: False, params)
    linears = lambda m: [m.attn.weight] + [layer.weight for layer in m.mlp.layers]
    return eqx.tree_at(linears, mask, replace=[True] * (1 + len(params.mlp.layers)))


if __name__ == "__main__":
    model = Block(8, jax.random.key(0))
    params = eqx.filter(model, eqx.is_inexact_array)
    optim = optax.adamw(1e-2, weight_decay=0.1, mask=decay_mask(params))
    opt_state = optim.init(params)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    for _ in range(100):
        updates, opt_state = optim.update(zeros, opt_state, eqx.filter(model, eqx.is_inexact_array))
        model = eqx.apply_updates(model, updates)
    assert float(model.ln1.weight[0]) == 1.0
    print("OK LayerNorm weights 1.000, biases kept; linear weights decayed")
