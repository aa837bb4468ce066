# recall-case: positive
# rule: OPT011
# source: https://github.com/patrick-kidger/equinox/issues/107
# shown: HAZARD: TypeError 'NoneType' object is not callable on the next forward pass (activation dropped by the filter)
# style: optax.apply_updates on the filtered tree, result stored as the model; helper step used in a loop
import jax
import jax.numpy as jnp
import equinox as eqx
import optax

optim = optax.sgd(1e-2, momentum=0.9)


def step(model, opt_state, x, y):
    params = eqx.filter(model, eqx.is_array)
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    updates, opt_state = optim.update(grads, opt_state, params)
    model = optax.apply_updates(params, updates)  # expect
    return model, opt_state


if __name__ == "__main__":
    model = eqx.nn.MLP(3, 1, 8, 2, activation=jax.nn.silu, key=jax.random.key(0))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    x, y = jnp.ones((4, 3)), jnp.zeros((4, 1))
    try:
        for _ in range(2):
            model, opt_state = step(model, opt_state, x, y)
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("trained")
