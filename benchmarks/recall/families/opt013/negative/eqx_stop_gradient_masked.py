# recall-case: negative
# rule: OPT013
# source: https://github.com/patrick-kidger/equinox/issues/866
# shown: OK basis stays 2.0
# style: Equinox constant under stop_gradient, adamw with a mask that excludes it (built with tree_at)
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class FourierFeatures(eqx.Module):
    basis: jax.Array
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.basis = 2.0 * jnp.ones((2, 8))
        self.linear = eqx.nn.Linear(16, 1, key=key)

    def __call__(self, x):
        z = x @ jax.lax.stop_gradient(self.basis)
        return self.linear(jnp.concatenate([jnp.sin(z), jnp.cos(z)]))


model = FourierFeatures(jax.random.key(0))
params = eqx.filter(model, eqx.is_array)
decay_mask = jax.tree_util.tree_map(lambda _: True, params)
decay_mask = eqx.tree_at(lambda m: m.basis, decay_mask, replace=False)
optim = optax.adamw(1e-2, weight_decay=0.5, mask=decay_mask)
opt_state = optim.init(params)


@eqx.filter_jit
def step(model, opt_state, x, y):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x)[:, 0] - y) ** 2))(model)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state


if __name__ == "__main__":
    x = jax.random.normal(jax.random.key(1), (32, 2))
    y = jnp.sin(x[:, 0])
    for _ in range(50):
        model, opt_state = step(model, opt_state, x, y)
    assert float(model.basis[0, 0]) == 2.0
    print("OK basis stays", float(model.basis[0, 0]))
