# recall-case: positive
# rule: OPT012
# source: https://github.com/google-deepmind/optax/issues/1429
# shown: AttributeError: 'ArrayImpl' object has no attribute 'fast' at the first solver.update
# style: script, plain array params, python loop
import jax
import jax.numpy as jnp
import optax


def objective(x):
    return jnp.sum((x - 3.0) ** 2)


params = jnp.array([2.0, -1.0])
solver = optax.lookahead(optax.adam(1e-1), sync_period=5, slow_step_size=0.5)
state = solver.init(params)

for step in range(20):
    loss, grads = jax.value_and_grad(objective)(params)
    updates, state = solver.update(grads, state, params)  # expect
    params = optax.apply_updates(params, updates)

if __name__ == "__main__":
    print("HAZARD: no error raised, final params", params)
