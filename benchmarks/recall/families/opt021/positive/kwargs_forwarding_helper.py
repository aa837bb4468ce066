# recall-case: positive
# rule: OPT021
# source: https://github.com/patrick-kidger/equinox/issues/502
# shown: TypeError: Functions wrapped with `equinox.filter_{grad, value_and_grad}` must have their first argument passed by position ...
# style: generic helper forwarding **batch to the wrapped loss, called from two places
import equinox as eqx
import jax
import jax.numpy as jnp


def compute_grads(loss, **inputs):
    return eqx.filter_value_and_grad(loss)(**inputs)  # expect


def mse(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


def l1(model, x, y):
    return jnp.mean(jnp.abs(jax.vmap(model)(x) - y))


if __name__ == "__main__":
    model = eqx.nn.MLP(3, 1, 8, 1, key=jax.random.key(0))
    batch = {"x": jnp.ones((4, 3)), "y": jnp.zeros((4, 1))}
    loss, grads = compute_grads(mse, model=model, **batch)
    loss1, grads1 = compute_grads(l1, model=model, **batch)
    print("HAZARD: no error (not expected)")
