# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/blackjax-devs/blackjax/issues/53
# shown: under lax.while_loop the checker stays silent; running the same loop body for two steps raises KeyReuseError (the integrator's key is the state's key, split again next step)
# style: trajectory expansion in a lax.while_loop, helper integrator function that draws
import sys

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)

MAX_DOUBLINGS = 4


def integrator(position, rng_key, step_size=0.1):
    momentum = jax.random.normal(rng_key, position.shape)
    return position + step_size * momentum


def expand_once(state):
    step, rng_key, position = state
    rng_key, direction_key = jax.random.split(rng_key)  # expect
    direction = jnp.where(jax.random.bernoulli(direction_key), 1.0, -1.0)
    new_position = integrator(direction * position, rng_key)  # expect
    return step + 1, rng_key, new_position


def expand(initial_position, rng_key):
    state = (0, rng_key, initial_position)
    _, _, position = jax.lax.while_loop(lambda s: s[0] < MAX_DOUBLINGS, expand_once, state)  # expect
    return position


if __name__ == "__main__":
    expand(jnp.ones(2), jax.random.key(0))
    try:
        state = (0, jax.random.key(0), jnp.ones(2))
        for _ in range(2):
            state = expand_once(state)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
