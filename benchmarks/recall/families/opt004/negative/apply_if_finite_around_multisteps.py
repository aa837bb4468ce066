# recall-case: negative
# rule: OPT004
# source: https://github.com/google-deepmind/optax/issues/828
# shown: output layer moves 0.040 over 8 clean steps after a NaN micro-batch (OK)
# style: Equinox MLP, MultiSteps(adam) wrapped by apply_if_finite, helper-built optimizer
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


def build(lr, k):
    return optax.apply_if_finite(optax.MultiSteps(optax.adam(lr), every_k_schedule=k), max_consecutive_errors=5)


@eqx.filter_jit
def step(model, state, x, y, optim):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    updates, state = optim.update(grads, state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), state


if __name__ == "__main__":
    optim = build(1e-2, 2)
    model = eqx.nn.MLP(2, 1, 4, 1, key=jax.random.key(3))
    state = optim.init(eqx.filter(model, eqx.is_array))
    x, y = jnp.ones((4, 2)), jnp.ones((4, 1))
    model, state = step(model, state, x.at[0, 0].set(jnp.nan), y, optim)
    w0 = model.layers[-1].weight
    for _ in range(8):
        model, state = step(model, state, x, y, optim)
    moved = float(jnp.abs(model.layers[-1].weight - w0).max())
    print("max change of the output layer over 8 clean steps:", moved)
    assert moved > 0.0 and bool(jnp.all(jnp.isfinite(model.layers[-1].weight)))
    print("OK")
