# recall-case: negative
# rule: OPT017
# source: https://github.com/google-deepmind/optax/pull/883
# shown: OK update size 10% of its start, scale 0.1
# style: script, reduce_on_plateau after adam (scales the final updates), lax.scan loop
import jax
import jax.numpy as jnp
import optax

tx = optax.chain(
    optax.adam(1e-2),
    optax.contrib.reduce_on_plateau(factor=0.1, patience=5, cooldown=10_000),
)
params = {"w": jnp.ones(3)}
state = tx.init(params)
data = jnp.array([1.0, 2.0, 3.0])


def body(carry, _):
    params, state = carry
    grads = jax.grad(lambda p: jnp.sum(p["w"] * data))(params)
    updates, state = tx.update(grads, state, params, value=jnp.asarray(1.0))
    return (optax.apply_updates(params, updates), state), jnp.abs(updates["w"]).max()


(params, state), sizes = jax.lax.scan(body, (params, state), None, length=3000)

if __name__ == "__main__":
    ratio = float(sizes[-1] / sizes[0])
    assert ratio < 0.2
    print(f"OK update size {ratio:.0%} of its start, scale {float(optax.tree.get(state, 'scale')):.1f}")
