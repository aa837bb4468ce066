# recall-case: negative
# rule: OPT003
# source: https://github.com/patrick-kidger/equinox/issues/590
# shown: adam.update(grads, state, model) runs: adam never reads params (OK)
# style: helper functions; state from the filtered model, update given the whole model (harmless for adam)
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


def make_state(optim, model):
    return optim.init(eqx.filter(model, eqx.is_inexact_array))


@eqx.filter_jit
def step(model, state, x, optim):
    grads = eqx.filter_grad(lambda m: jnp.mean(jax.vmap(m)(x) ** 2))(model)
    updates, state = optim.update(grads, state, model)
    return eqx.apply_updates(model, updates), state


if __name__ == "__main__":
    optim = optax.adam(1e-2)
    model = eqx.nn.MLP(2, 2, 8, 2, key=jax.random.key(0))
    state = make_state(optim, model)
    w0 = model.layers[0].weight
    for _ in range(3):
        model, state = step(model, state, jnp.ones((4, 2)), optim)
    print("weight moved", float(jnp.abs(model.layers[0].weight - w0).max()))
    print("OK")
