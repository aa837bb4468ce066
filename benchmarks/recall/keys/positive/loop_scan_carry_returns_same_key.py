# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/eserie/wax-ml/pull/45
# source: https://github.com/eserie/wax-ml/pull/51
# shown: KeyReuseError under jax_debug_key_reuse: the scan carry hands the same rng to every unrolled step
# style: stochastic recurrent cell unrolled with lax.scan over time
import sys

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def noisy_cell(params, state, x, rng):
    h = jnp.tanh(params["wx"] * x + params["wh"] * state)
    return h + 0.1 * jax.random.normal(rng, h.shape)


def unroll(params, xs, rng, init_state):
    def step(carry, x):
        state, rng = carry
        new_state = noisy_cell(params, state, x, rng)  # expect
        return (new_state, rng), new_state  # expect

    _, states = jax.lax.scan(step, (init_state, rng), xs)  # expect
    return states


if __name__ == "__main__":
    params = {"wx": jnp.float32(0.5), "wh": jnp.float32(0.9)}
    try:
        unroll(params, jnp.ones((5, 2)), jax.random.key(3), jnp.zeros(2))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
