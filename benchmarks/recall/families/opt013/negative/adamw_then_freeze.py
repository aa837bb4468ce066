# recall-case: negative
# rule: OPT013
# source: https://github.com/google-deepmind/optax/issues/296
# shown: OK frozen backbone weight stays 1.0
# style: script, freeze placed after adamw (last in the chain)
import jax
import jax.numpy as jnp
import optax

params = {
    "backbone": {"w": jnp.ones((3, 3)), "b": jnp.ones(3)},
    "head": {"w": jnp.ones((3, 1)), "b": jnp.zeros(1)},
}
frozen = {"backbone": {"w": True, "b": True}, "head": {"w": False, "b": False}}
tx = optax.chain(optax.adamw(1e-3, weight_decay=1.0), optax.freeze(frozen))
opt_state = tx.init(params)


def loss_fn(p, x, y):
    h = jnp.tanh(x @ p["backbone"]["w"] + p["backbone"]["b"])
    return jnp.mean((h @ p["head"]["w"] + p["head"]["b"] - y) ** 2)


x = jnp.ones((8, 3))
y = jnp.zeros((8, 1))
for _ in range(50):
    grads = jax.grad(loss_fn)(params, x, y)
    updates, opt_state = tx.update(grads, opt_state, params)
    params = optax.apply_updates(params, updates)

if __name__ == "__main__":
    assert float(params["backbone"]["w"][0, 0]) == 1.0
    print("OK frozen backbone weight stays", float(params["backbone"]["w"][0, 0]))
