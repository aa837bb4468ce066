# recall-case: negative
# rule: OPT020
# class: loop
# source: https://github.com/google/flax/commit/64a7cb54cea481861dd9d9919d3d28d0a856de97
# shown: runs with jax_debug_key_reuse on; every call of the jitted step gets a fresh subkey; prints OK
# style: training script, jitted project train_step with dropout, key split in the Python loop
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


@jax.jit
def train_step(w, x, rng, rate=0.2):
    def loss(w):
        keep = jax.random.bernoulli(rng, 1.0 - rate, x.shape)
        return jnp.mean((jnp.where(keep, x / (1.0 - rate), 0.0) @ w) ** 2)

    return w - 0.1 * jax.grad(loss)(w)


def train(num_steps, rng):
    w = jnp.ones((3, 1))
    x = jnp.ones((4, 3))
    for _ in range(num_steps):
        rng, step_rng = jax.random.split(rng)
        w = train_step(w, x, step_rng)
    return w


if __name__ == "__main__":
    train(3, jax.random.key(0))
    print("OK")
