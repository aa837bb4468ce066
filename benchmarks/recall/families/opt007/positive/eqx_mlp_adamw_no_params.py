# recall-case: positive
# rule: OPT007
# source: https://github.com/patrick-kidger/equinox/issues/607
# shown: HAZARD: ValueError You are using a transformation that requires the current value of parameters, but you are not passing `params` when calling `update`.
# style: Equinox docs-style loop with a decorated loss (filter_value_and_grad) and a filter_jit make_step; adamw chosen, update(grads, opt_state)
import jax
import jax.numpy as jnp
import equinox as eqx
import optax

key = jax.random.key(0)
X_train = jax.random.normal(key, (64, 3))
y_train = jnp.sum(X_train, axis=1, keepdims=True)
model = eqx.nn.MLP(X_train.shape[1], y_train.shape[1], 4, 1, key=key)
optim = optax.adamw(0.001)
opt_state = optim.init(eqx.filter(model, eqx.is_array))


@eqx.filter_value_and_grad
def loss_fn(model, x, y):
    return jnp.mean((y - jax.vmap(model)(x)) ** 2)


@eqx.filter_jit
def make_step(model, x, y, opt_state):
    loss, grads = loss_fn(model, x, y)
    updates, opt_state = optim.update(grads, opt_state)  # expect
    return loss, eqx.apply_updates(model, updates), opt_state


if __name__ == "__main__":
    try:
        for epoch in range(3):
            loss, model, opt_state = make_step(model, X_train, y_train, opt_state)
    except ValueError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("loss", loss)
