# recall-case: negative
# rule: OPT020
# class: loop
# source: https://github.com/kazewong/flowMC/pull/148
# shown: runs with jax_debug_key_reuse on; the optimiser's while_loop splits its key every iteration; prints OK
# style: jitted evolution-strategy optimiser with lax.while_loop
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def objective(x):
    return jnp.sum((x - 1.0) ** 2, axis=-1)


@jax.jit
def optimise(x0, key, popsize=8, sigma=0.3, max_steps=5):
    def body(carry):
        step, mean, key = carry
        key, sample_key = jax.random.split(key)
        candidates = mean + sigma * jax.random.normal(sample_key, (popsize,) + mean.shape)
        return step + 1, candidates[jnp.argmin(objective(candidates))], key

    _, best, _ = jax.lax.while_loop(lambda c: c[0] < max_steps, body, (0, x0, key))
    return best


if __name__ == "__main__":
    optimise(jnp.zeros(2), jax.random.key(1))
    print("OK")
