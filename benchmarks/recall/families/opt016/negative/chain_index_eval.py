# recall-case: negative
# rule: OPT016
# source: https://github.com/facebookresearch/schedule_free/issues/15
# shown: OK eval loss ...
# style: script, chain with clipping; eval params from the schedule-free entry of the state
import jax
import jax.numpy as jnp
import optax

params = {"w": jnp.ones((3, 1)), "b": jnp.zeros(1)}
tx = optax.chain(
    optax.clip_by_global_norm(1.0),
    optax.contrib.schedule_free_adamw(1e-2, warmup_steps=5),
)
state = tx.init(params)
x = jnp.ones((8, 3))
y = jnp.zeros((8, 1))


def loss_fn(p):
    return jnp.mean((x @ p["w"] + p["b"] - y) ** 2)


for _ in range(20):
    updates, state = tx.update(jax.grad(loss_fn)(params), state, params)
    params = optax.apply_updates(params, updates)

eval_params = optax.contrib.schedule_free_eval_params(state[1], params)

if __name__ == "__main__":
    print("OK eval loss", float(loss_fn(eval_params)))
