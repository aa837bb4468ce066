# recall-case: positive
# rule: OPT020
# class: fold-in-split
# source: https://github.com/google/trax/commit/c046a5ee367d8a257e2a4b3dbdcdd5903dfffeb1
# shown: split(rng, n_heads) is a prefix of split(rng, n_heads * batch): head 0's weights and state 0 come from one key; KeyReuseError with the checker on
# style: attention layer object that keeps self.rng and initialises weights and per-head state from it
import sys

import jax
import jax.numpy as jnp


class SelfAttention:
    def __init__(self, n_heads, d_head, rng):
        self.n_heads = n_heads
        self.d_head = d_head
        self.rng = rng

    def init_weights_and_state(self, batch_size):
        weight_rngs = jax.random.split(self.rng, self.n_heads)  # expect
        weights = [jax.random.normal(k, (self.d_head,)) for k in weight_rngs]
        state_rngs = jax.random.split(self.rng, self.n_heads * batch_size)  # expect
        state = [jax.random.normal(k, (self.d_head,)) for k in state_rngs]
        return weights, state


if __name__ == "__main__":
    layer = SelfAttention(2, 3, jax.random.key(0))
    weights, state = layer.init_weights_and_state(batch_size=2)
    if all(bool(jnp.all(w == s)) for w, s in zip(weights, state)):
        print("HAZARD: per-head weights equal the first per-head states")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        SelfAttention(2, 3, jax.random.key(0)).init_weights_and_state(batch_size=2)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
