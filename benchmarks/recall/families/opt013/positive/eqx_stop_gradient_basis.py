# recall-case: positive
# rule: OPT013
# source: https://github.com/patrick-kidger/equinox/issues/866
# source: https://github.com/patrick-kidger/equinox/issues/957
# shown: HAZARD: fixed basis (read through stop_gradient) shrank 2.0 -> 1.557
# style: Equinox module with a constant read through jax.lax.stop_gradient, unmasked adamw
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class FourierFeatures(eqx.Module):
    basis: jax.Array  # fixed frequencies, not meant to be trained
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.basis = 2.0 * jnp.ones((2, 8))
        self.linear = eqx.nn.Linear(16, 1, key=key)

    def __call__(self, x):
        z = x @ jax.lax.stop_gradient(self.basis)
        return self.linear(jnp.concatenate([jnp.sin(z), jnp.cos(z)]))


@eqx.filter_jit
def step(model, opt_state, x, y):
    def loss(m):
        return jnp.mean((jax.vmap(m)(x)[:, 0] - y) ** 2)

    grads = eqx.filter_grad(loss)(model)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state


model = FourierFeatures(jax.random.key(0))
optim = optax.adamw(1e-2, weight_decay=0.5)  # expect
opt_state = optim.init(eqx.filter(model, eqx.is_array))

if __name__ == "__main__":
    x = jax.random.normal(jax.random.key(1), (32, 2))
    y = jnp.sin(x[:, 0])
    for _ in range(50):
        model, opt_state = step(model, opt_state, x, y)
    b = float(model.basis[0, 0])
    print(f"HAZARD: fixed basis (read through stop_gradient) shrank 2.0 -> {b:.3f}" if b != 2.0 else "OK")
