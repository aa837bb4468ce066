# recall-case: positive
# rule: OPT022
# source: https://github.com/patrick-kidger/equinox/issues/790
# shown: HAZARD: the 4 'shared' recurrent blocks are now 4 different blocks (max spread 0.0200)
# style: universal-transformer style depth recurrence written as [block] * n, optimizer in a helper
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class Block(eqx.Module):
    lin: eqx.nn.Linear
    norm: eqx.nn.LayerNorm

    def __init__(self, dim, key):
        self.lin = eqx.nn.Linear(dim, dim, key=key)
        self.norm = eqx.nn.LayerNorm(dim)

    def __call__(self, x):
        return x + jax.nn.gelu(self.lin(self.norm(x)))


class UniversalNet(eqx.Module):
    blocks: list

    def __init__(self, dim, depth, key):
        block = Block(dim, key)
        self.blocks = [block] * depth  # expect

    def __call__(self, x):
        for blk in self.blocks:
            x = blk(x)
        return x


def make_optimizer():
    return optax.adam(1e-2)


if __name__ == "__main__":
    model = UniversalNet(4, 4, jax.random.key(0))
    optim = make_optimizer()
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    x = jax.random.normal(jax.random.key(1), (8, 4))
    grads = eqx.filter_grad(lambda m: jnp.mean(jax.vmap(m)(x) ** 2))(model)
    updates, opt_state = optim.update(grads, opt_state)
    model = eqx.apply_updates(model, updates)
    ws = jnp.stack([b.lin.weight for b in model.blocks])
    spread = float(jnp.abs(ws - ws[0]).max())
    print(f"HAZARD: the 4 'shared' recurrent blocks are now 4 different blocks (max spread {spread:.4f})" if spread else "OK")
