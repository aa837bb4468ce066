# recall-case: negative
# rule: OPT012
# source: https://github.com/google-deepmind/optax/issues/1429
# shown: runs; loss decreases; prints OK
# style: script, LookaheadParams.init_synced, loss read on the fast weights
import jax
import jax.numpy as jnp
import optax


def objective(x):
    return jnp.sum((x - 3.0) ** 2)


solver = optax.lookahead(optax.adam(1e-1), sync_period=5, slow_step_size=0.5)
params = optax.LookaheadParams.init_synced(jnp.array([2.0, -1.0]))
state = solver.init(params)

for step in range(50):
    loss, grads = jax.value_and_grad(objective)(params.fast)
    updates, state = solver.update(grads, state, params)
    params = optax.apply_updates(params, updates)

if __name__ == "__main__":
    assert objective(params.slow) < 13.0
    print("OK", float(objective(params.slow)))
