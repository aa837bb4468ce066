# recall-case: positive
# rule: OPT017
# source: https://github.com/google-deepmind/optax/pull/877
# source: https://github.com/google-deepmind/optax/pull/883
# shown: HAZARD: plateau scale is 0.1 but the update size is back to 99% of its start
# style: script, reduce_on_plateau placed first in the chain, lax.scan training loop
import jax
import jax.numpy as jnp
import optax

tx = optax.chain(  # expect
    optax.contrib.reduce_on_plateau(factor=0.1, patience=5, cooldown=10_000),
    optax.adam(1e-2),
)
params = {"w": jnp.ones(3)}
state = tx.init(params)
data = jnp.array([1.0, 2.0, 3.0])


def loss_fn(p):
    return jnp.sum(p["w"] * data)  # linear loss: the gradient never shrinks on its own


def body(carry, _):
    params, state = carry
    loss, grads = jax.value_and_grad(loss_fn)(params)
    val_loss = jnp.asarray(1.0)  # the validation loss has plateaued
    updates, state = tx.update(grads, state, params, value=val_loss)
    return (optax.apply_updates(params, updates), state), jnp.abs(updates["w"]).max()


(params, state), sizes = jax.lax.scan(body, (params, state), None, length=3000)

if __name__ == "__main__":
    scale = float(optax.tree.get(state, "scale"))
    ratio = float(sizes[-1] / sizes[0])
    print(f"HAZARD: plateau scale is {scale:.1f} but the update size is back to {ratio:.0%} of its start"
          if ratio > 2 * scale else "OK")
