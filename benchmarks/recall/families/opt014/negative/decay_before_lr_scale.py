# recall-case: negative
# rule: OPT014
# source: https://github.com/google-deepmind/optax/issues/364
# shown: OK unused head weight shrank 1.000 -> 0.990
# style: script, hand-written AdamW: decay between scale_by_adam and the (negative) learning rate
import jax
import jax.numpy as jnp
import optax

params = {"trunk": jnp.ones((4, 4)), "aux_head": jnp.ones((4, 2))}


def loss_fn(p, x):
    return jnp.mean(jnp.tanh(x @ p["trunk"]) ** 2)


optimizer = optax.chain(
    optax.scale_by_adam(),
    optax.add_decayed_weights(0.1),
    optax.scale(-1e-2),
)
opt_state = optimizer.init(params)
x = jnp.ones((2, 4))
for _ in range(10):
    grads = jax.grad(loss_fn)(params, x)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)

if __name__ == "__main__":
    w = float(params["aux_head"][0, 0])
    assert w < 1.0
    print(f"OK unused head weight shrank 1.000 -> {w:.3f}")
