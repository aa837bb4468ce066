# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/google/flax/commit/64a7cb54cea481861dd9d9919d3d28d0a856de97
# shown: KeyReuseError under jax_debug_key_reuse: the Python loop hands one rng to the jitted train_step every step
# style: seq2seq-style training script, jitted project train_step with dropout
import sys

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def forward(params, x, rng, rate=0.2):
    h = jnp.tanh(x @ params["w1"])
    keep = jax.random.bernoulli(rng, 1.0 - rate, h.shape)
    h = jnp.where(keep, h / (1.0 - rate), 0.0)
    return h @ params["w2"]


@jax.jit
def train_step(params, batch, rng):
    def loss_fn(p):
        return jnp.mean((forward(p, batch["x"], rng) - batch["y"]) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)
    return params, {"loss": loss}


def train_model(num_steps):
    init_rng, rng = jax.random.split(jax.random.key(0), 2)
    k1, k2 = jax.random.split(init_rng)
    params = {"w1": jax.random.normal(k1, (3, 8)), "w2": jax.random.normal(k2, (8, 1))}
    batch = {"x": jnp.ones((4, 3)), "y": jnp.zeros((4, 1))}
    for step in range(num_steps):
        params, metrics = train_step(params, batch, rng)  # expect
    return params


if __name__ == "__main__":
    try:
        train_model(3)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
