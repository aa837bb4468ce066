# recall-case: negative
# rule: OPT015
# source: https://github.com/google-deepmind/optax/issues/964
# shown: OK lr read through opt_state[1]
# style: script, chain with inject_hyperparams; the lr read at the state's index
import jax
import jax.numpy as jnp
import optax

schedule = optax.warmup_cosine_decay_schedule(0.0, 1e-2, 10, 100)
tx = optax.chain(
    optax.clip_by_global_norm(1.0),
    optax.inject_hyperparams(optax.adamw)(learning_rate=schedule, weight_decay=1e-4),
)
params = {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)}
opt_state = tx.init(params)
x = jnp.ones((4, 3))
for step in range(5):
    grads = jax.grad(lambda p: jnp.sum((x @ p["w"] + p["b"]) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    lr = opt_state[1].hyperparams["learning_rate"]

if __name__ == "__main__":
    print("OK lr read through opt_state[1]", float(lr))
