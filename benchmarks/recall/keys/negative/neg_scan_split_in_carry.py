# recall-case: negative
# rule: OPT020
# class: loop
# source: https://github.com/eserie/wax-ml/pull/51
# shown: runs with jax_debug_key_reuse on; each scan step splits the carried key; per-step noise differs; prints OK
# style: stochastic recurrent cell unrolled with lax.scan
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def unroll(params, xs, rng, state):
    def step(carry, x):
        state, rng = carry
        rng, step_rng = jax.random.split(rng)
        h = jnp.tanh(params * x + state)
        noise = 0.1 * jax.random.normal(step_rng, h.shape)
        return (h + noise, rng), noise

    _, noises = jax.lax.scan(step, (state, rng), xs)
    return noises


if __name__ == "__main__":
    noises = unroll(jnp.float32(0.5), jnp.ones((5, 2)), jax.random.key(3), jnp.zeros(2))
    assert not bool(jnp.all(noises[0] == noises[1]))
    print("OK")
