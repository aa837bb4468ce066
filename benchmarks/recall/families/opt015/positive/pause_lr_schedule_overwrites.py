# recall-case: positive
# rule: OPT015
# source: https://github.com/google-deepmind/optax/issues/206
# shown: HAZARD: lr set to 0.0 but params still moved by 0.0711; hyperparams now 0.0973
# style: script, inject_hyperparams with a schedule, learning rate "paused" by writing into the state
import jax
import jax.numpy as jnp
import optax

schedule = optax.linear_schedule(0.1, 0.01, transition_steps=100)
tx = optax.inject_hyperparams(optax.sgd)(learning_rate=schedule)
params = jnp.array([1.0, -1.0])
state = tx.init(params)


def loss_fn(p):
    return jnp.sum(p**2) / 2


for _ in range(3):
    updates, state = tx.update(jax.grad(loss_fn)(params), state, params)
    params = optax.apply_updates(params, updates)

# freeze training for a while (e.g. during a warm restart of the data pipeline)
state.hyperparams["learning_rate"] = jnp.asarray(0.0)  # expect
before = params
updates, state = tx.update(jax.grad(loss_fn)(params), state, params)
params = optax.apply_updates(params, updates)

if __name__ == "__main__":
    moved = float(jnp.abs(params - before).max())
    now = float(state.hyperparams["learning_rate"])
    print(f"HAZARD: lr set to 0.0 but params still moved by {moved:.4f}; hyperparams now {now:.4f}" if moved else "OK")
