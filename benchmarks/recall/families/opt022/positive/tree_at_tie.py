# recall-case: positive
# rule: OPT022
# source: https://github.com/patrick-kidger/equinox/issues/469
# source: https://github.com/patrick-kidger/equinox/pull/529
# shown: HAZARD: layers tied with tree_at drift apart: max |diff| 0.0317
# style: eqx.tree_at used after construction to tie two layers, lax.scan training loop
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class Siamese(eqx.Module):
    left: eqx.nn.MLP
    right: eqx.nn.MLP

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.left = eqx.nn.MLP(3, 2, 8, 1, key=k1)
        self.right = eqx.nn.MLP(3, 2, 8, 1, key=k2)

    def __call__(self, a, b):
        return jnp.sum((self.left(a) - self.right(b)) ** 2)


def tie_towers(model):
    return eqx.tree_at(lambda m: m.right, model, model.left)  # expect


if __name__ == "__main__":
    model = tie_towers(Siamese(jax.random.key(0)))
    params, static = eqx.partition(model, eqx.is_array)
    optim = optax.sgd(1e-1)
    opt_state = optim.init(params)
    a = jax.random.normal(jax.random.key(1), (10, 3))
    b = a + 0.5

    def body(carry, _):
        params, opt_state = carry
        grads = jax.grad(lambda p: jnp.mean(jax.vmap(eqx.combine(p, static))(a, b)))(params)
        updates, opt_state = optim.update(grads, opt_state)
        return (optax.apply_updates(params, updates), opt_state), None

    (params, _), _ = jax.lax.scan(body, (params, opt_state), None, length=5)
    m = eqx.combine(params, static)
    gap = float(jnp.abs(m.left.layers[0].weight - m.right.layers[0].weight).max())
    print(f"HAZARD: layers tied with tree_at drift apart: max |diff| {gap:.4f}" if gap else "OK")
