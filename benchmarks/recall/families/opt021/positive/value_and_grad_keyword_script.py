# recall-case: positive
# rule: OPT021
# source: https://github.com/patrick-kidger/equinox/issues/502
# source: https://github.com/patrick-kidger/equinox/pull/503
# shown: TypeError: Functions wrapped with `equinox.filter_{grad, value_and_grad}` must have their first argument passed by position, not keyword.
# style: script, decorated loss, every argument passed by keyword for readability
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


@eqx.filter_value_and_grad
def loss_fn(model, x, y):
    pred = jax.vmap(model)(x)
    return jnp.mean((pred - y) ** 2)


model = eqx.nn.MLP(2, 1, 16, 2, key=jax.random.key(0))
optim = optax.adam(1e-3)
opt_state = optim.init(eqx.filter(model, eqx.is_array))
x = jnp.ones((8, 2))
y = jnp.zeros((8, 1))

for step in range(3):
    loss, grads = loss_fn(model=model, x=x, y=y)  # expect
    updates, opt_state = optim.update(grads, opt_state)
    model = eqx.apply_updates(model, updates)

if __name__ == "__main__":
    print("HAZARD: no error (not expected)", loss)
