# recall-case: negative
# rule: OPT021
# source: https://github.com/patrick-kidger/equinox/pull/503
# shown: OK loss ...
# style: script, model passed by position, the other arguments by keyword
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


@eqx.filter_value_and_grad
def loss_fn(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


model = eqx.nn.MLP(2, 1, 16, 2, key=jax.random.key(0))
optim = optax.adam(1e-3)
opt_state = optim.init(eqx.filter(model, eqx.is_array))
for step in range(3):
    loss, grads = loss_fn(model, x=jnp.ones((8, 2)), y=jnp.zeros((8, 1)))
    updates, opt_state = optim.update(grads, opt_state)
    model = eqx.apply_updates(model, updates)

if __name__ == "__main__":
    print("OK loss", float(loss))
