# recall-case: negative
# rule: OPT007
# source: https://github.com/google-deepmind/optax/issues/679
# shown: reduce_on_plateau gets value=loss; lr scale drops below 1 on a plateau (OK)
# style: chain(adam, reduce_on_plateau) with update(..., value=loss) in a jitted step
import jax
import jax.numpy as jnp
import optax

tx = optax.chain(optax.adam(1e-2), optax.contrib.reduce_on_plateau(factor=0.5, patience=2, cooldown=0))


@jax.jit
def step(params, state):
    loss, grads = jax.value_and_grad(lambda p: jnp.sum(p ** 2) * 0 + 1.0)(params)
    updates, state = tx.update(grads, state, params, value=loss)
    return optax.apply_updates(params, updates), state


if __name__ == "__main__":
    params = jnp.ones(3)
    state = tx.init(params)
    for _ in range(10):
        params, state = step(params, state)
    scale = float(state[1].scale)
    print("plateau scale", scale)
    assert scale < 1.0
    print("OK")
