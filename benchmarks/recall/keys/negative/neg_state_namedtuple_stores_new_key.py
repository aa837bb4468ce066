# recall-case: negative
# rule: OPT020
# class: calls-and-state
# source: https://github.com/google/flax/pull/2631
# shown: runs with jax_debug_key_reuse on; the step stores the new key from split in the state; prints OK
# style: NamedTuple train state threaded through a jitted step
from typing import NamedTuple

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class TrainState(NamedTuple):
    params: jax.Array
    key: jax.Array


@jax.jit
def train_step(state, x, rate=0.5):
    key, dropout_key = jax.random.split(state.key)

    def loss(params):
        keep = jax.random.bernoulli(dropout_key, 1.0 - rate, x.shape)
        return jnp.sum((jnp.where(keep, x, 0.0) @ params) ** 2)

    return TrainState(state.params - 0.01 * jax.grad(loss)(state.params), key)


if __name__ == "__main__":
    state = TrainState(jnp.ones((4, 2)), jax.random.key(0))
    for _ in range(3):
        state = train_step(state, jnp.ones(4))
    print("OK")
