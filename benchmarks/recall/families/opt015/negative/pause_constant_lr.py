# recall-case: negative
# rule: OPT015
# source: https://github.com/google-deepmind/optax/issues/206
# shown: OK params unchanged while lr is 0
# style: script, inject_hyperparams with a constant lr, written into the state to pause training
import jax
import jax.numpy as jnp
import optax

tx = optax.inject_hyperparams(optax.sgd)(learning_rate=0.1)
params = jnp.array([1.0, -1.0])
state = tx.init(params)


def loss_fn(p):
    return jnp.sum(p**2) / 2


for _ in range(3):
    updates, state = tx.update(jax.grad(loss_fn)(params), state, params)
    params = optax.apply_updates(params, updates)

state.hyperparams["learning_rate"] = jnp.asarray(0.0)
before = params
updates, state = tx.update(jax.grad(loss_fn)(params), state, params)
params = optax.apply_updates(params, updates)

if __name__ == "__main__":
    assert float(jnp.abs(params - before).max()) == 0.0
    print("OK params unchanged while lr is 0")
