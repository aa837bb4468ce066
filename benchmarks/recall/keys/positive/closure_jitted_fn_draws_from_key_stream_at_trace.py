# recall-case: positive
# rule: OPT020
# class: closure
# source: https://github.com/google/flax/issues/112
# shown: every call of the jitted augmentation adds the same noise: the key stream is advanced once, while tracing, and the resulting key is baked into the compiled function
# style: a stateful key-stream helper object (next_key()) used inside a jax.jit-decorated data-augmentation function
import sys

import jax
import jax.numpy as jnp


class KeyStream:
    """Hands out a fresh subkey on each next_key() call (in Python)."""

    def __init__(self, seed):
        self._key = jax.random.PRNGKey(seed)

    def next_key(self):
        self._key, subkey = jax.random.split(self._key)
        return subkey


stream = KeyStream(0)


@jax.jit
def augment(batch):
    noise = 0.1 * jax.random.normal(stream.next_key(), batch.shape)  # expect
    shift = jax.random.randint(stream.next_key(), (), -2, 3)
    return jnp.roll(batch, shift, axis=-1) + noise


if __name__ == "__main__":
    batch = jnp.zeros((2, 6))
    outs = [augment(batch) for _ in range(4)]  # expect
    print(outs[0][0])
    if all(bool(jnp.all(o == outs[0])) for o in outs[1:]):
        print("HAZARD: 4 calls of the jitted augmentation produced identical noise:", outs[0][0, :3])
        sys.exit(1)
