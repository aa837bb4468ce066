# recall-case: positive
# rule: OPT018
# source: https://github.com/google-deepmind/optax/issues/1414
# shown: HAZARD: b2 stored as 1.0 (bfloat16); update has NaN: True
# style: script, bfloat16 params dict, inject_hyperparams(adam) to schedule the lr later
import jax
import jax.numpy as jnp
import optax

params = {
    "w": jax.random.normal(jax.random.key(0), (8, 4)).astype(jnp.bfloat16),
    "b": jnp.zeros(4, jnp.bfloat16),
}
opt = optax.inject_hyperparams(optax.adam)(learning_rate=1e-3)  # expect
state = opt.init(params)


def loss_fn(p, x):
    return jnp.mean((x @ p["w"] + p["b"]).astype(jnp.float32) ** 2)


x = jnp.ones((2, 8), jnp.bfloat16)
for _ in range(3):
    grads = jax.grad(loss_fn)(params, x)
    updates, state = opt.update(grads, state, params)
    params = optax.apply_updates(params, updates)

if __name__ == "__main__":
    b2 = float(state.hyperparams["b2"])
    has_nan = bool(jnp.isnan(params["w"]).any())
    print(f"HAZARD: b2 stored as {b2} (bfloat16); update has NaN: {has_nan}" if has_nan or b2 == 1.0 else "OK")
