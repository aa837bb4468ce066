# recall-case: negative
# rule: OPT018
# source: https://github.com/google-deepmind/optax/issues/1414
# shown: OK b2 0.999 (float32), params finite
# style: script, bfloat16 params, inject_hyperparams with hyperparam_dtype=float32
import jax
import jax.numpy as jnp
import optax

params = {
    "w": jax.random.normal(jax.random.key(0), (8, 4)).astype(jnp.bfloat16),
    "b": jnp.zeros(4, jnp.bfloat16),
}
opt = optax.inject_hyperparams(optax.adam, hyperparam_dtype=jnp.float32)(learning_rate=1e-3)
state = opt.init(params)


def loss_fn(p, x):
    return jnp.mean((x @ p["w"] + p["b"]).astype(jnp.float32) ** 2)


x = jnp.ones((2, 8), jnp.bfloat16)
for _ in range(3):
    grads = jax.grad(loss_fn)(params, x)
    updates, state = opt.update(grads, state, params)
    params = optax.apply_updates(params, updates)

if __name__ == "__main__":
    assert not bool(jnp.isnan(params["w"]).any())
    print(f"OK b2 {float(state.hyperparams['b2']):.3f} (float32), params finite")
