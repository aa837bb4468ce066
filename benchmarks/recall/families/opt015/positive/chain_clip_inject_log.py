# recall-case: positive
# rule: OPT015
# source: https://github.com/google-deepmind/optax/issues/964
# source: https://github.com/google-deepmind/optax/issues/206
# shown: AttributeError: 'tuple' object has no attribute 'hyperparams'
# style: script, learning rate logged from the state of a chain that holds inject_hyperparams
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


def loss_fn(p, x):
    return jnp.sum((x @ p["w"] + p["b"]) ** 2)


x = jnp.ones((4, 3))
for step in range(5):
    loss, grads = jax.value_and_grad(loss_fn)(params, x)
    updates, opt_state = tx.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)
    lr = opt_state.hyperparams["learning_rate"]  # expect
    print(f"step {step} loss {loss:.3f} lr {lr:.5f}")

if __name__ == "__main__":
    print("HAZARD: no error (not expected)")
