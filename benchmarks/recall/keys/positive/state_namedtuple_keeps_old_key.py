# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/google/flax/pull/2631
# shown: KeyReuseError under jax_debug_key_reuse: the step splits state.key but stores the old key back in the state
# style: NamedTuple train state threaded through a jitted step
import sys
from typing import NamedTuple

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class TrainState(NamedTuple):
    step: jax.Array
    params: jax.Array
    key: jax.Array


def loss_fn(params, x, key, rate=0.5):
    keep = jax.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.sum((jnp.where(keep, x / (1.0 - rate), 0.0) @ params) ** 2)


@jax.jit
def train_step(state, x):
    key, dropout_key = jax.random.split(state.key)  # expect
    grads = jax.grad(loss_fn)(state.params, x, dropout_key)
    return state._replace(step=state.step + 1, params=state.params - 0.01 * grads)


def train(num_steps):
    state = TrainState(jnp.int32(0), jnp.ones((4, 2)), jax.random.key(0))
    x = jnp.ones(4)
    for _ in range(num_steps):
        state = train_step(state, x)  # expect
    return state


if __name__ == "__main__":
    try:
        train(3)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
