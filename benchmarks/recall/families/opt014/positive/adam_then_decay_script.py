# recall-case: positive
# rule: OPT014
# source: https://github.com/google-deepmind/optax/issues/364
# source: https://github.com/google-deepmind/optax/issues/494
# shown: HAZARD: unused head weight grew 1.000 -> 2.594 in 10 steps (x1.1 per step)
# style: script, dict params, "Adam + L2" written as adam then add_decayed_weights
import jax
import jax.numpy as jnp
import optax

params = {"trunk": jnp.ones((4, 4)), "aux_head": jnp.ones((4, 2))}


def loss_fn(p, x):
    # the auxiliary head is only used at evaluation time: its gradient is zero here
    return jnp.mean(jnp.tanh(x @ p["trunk"]) ** 2)


optimizer = optax.chain(optax.adam(1e-3), optax.add_decayed_weights(0.1))  # expect
opt_state = optimizer.init(params)

x = jnp.ones((2, 4))
for _ in range(10):
    grads = jax.grad(loss_fn)(params, x)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)

if __name__ == "__main__":
    w = float(params["aux_head"][0, 0])
    print(f"HAZARD: unused head weight grew 1.000 -> {w:.3f} in 10 steps (x1.1 per step)" if w > 1.0 else "OK")
