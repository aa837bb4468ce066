# recall-case: positive
# rule: OPT015
# source: https://github.com/google-deepmind/optax/issues/964
# shown: AttributeError: 'tuple' object has no attribute 'hyperparams' (second caller, the clipped chain)
# style: one logging helper called from two runs: with a bare inject_hyperparams state (works) and a chain state (fails)
import jax
import jax.numpy as jnp
import optax


def log_lr(step, opt_state):
    lr = opt_state.hyperparams["learning_rate"]  # expect
    print(f"step {step}: lr={float(lr):.2e}")


def run(tx, steps=3):
    params = {"w": jnp.ones(4)}
    state = tx.init(params)
    for step in range(steps):
        grads = jax.grad(lambda p: jnp.sum(p["w"] ** 2))(params)
        updates, state = tx.update(grads, state, params)
        params = optax.apply_updates(params, updates)
        log_lr(step, state)
    return params


if __name__ == "__main__":
    sched = optax.exponential_decay(1e-2, transition_steps=10, decay_rate=0.5)
    run(optax.inject_hyperparams(optax.adam)(learning_rate=sched))
    run(optax.chain(optax.clip_by_global_norm(1.0), optax.inject_hyperparams(optax.adam)(learning_rate=sched)))
    print("HAZARD: no error (not expected)")
