# recall-case: positive
# rule: OPT016
# source: https://github.com/facebookresearch/schedule_free/issues/15
# source: https://github.com/google-deepmind/optax/issues/910
# shown: AttributeError: 'InjectStatefulHyperparamsState' object has no attribute 'b1'
# style: schedule-free AdamW wrapped in inject_hyperparams so the lr can be logged; checkpoint helper
import jax
import jax.numpy as jnp
import optax


def make_optimizer(lr=1e-2, warmup=5):
    return optax.inject_hyperparams(optax.contrib.schedule_free_adamw)(learning_rate=lr, warmup_steps=warmup)


def checkpoint_params(opt_state, params):
    return optax.contrib.schedule_free_eval_params(opt_state, params)  # expect


if __name__ == "__main__":
    tx = make_optimizer()
    params = {"w": jnp.ones(3)}
    state = tx.init(params)
    for step in range(10):
        grads = jax.grad(lambda p: jnp.sum((p["w"] - 2.0) ** 2))(params)
        updates, state = tx.update(grads, state, params)
        params = optax.apply_updates(params, updates)
        print("lr", float(state.hyperparams["learning_rate"]))
    saved = checkpoint_params(state, params)
    print("HAZARD: no error (not expected)", saved)
