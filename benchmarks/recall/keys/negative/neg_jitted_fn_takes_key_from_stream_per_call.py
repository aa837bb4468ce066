# recall-case: negative
# rule: OPT020
# class: closure
# source: https://github.com/google/flax/issues/112
# shown: runs with jax_debug_key_reuse on; the key stream is advanced outside jit and the key is passed in as an argument, so each call adds different noise; prints OK
# style: a stateful key-stream helper object (next_key()) feeding a jax.jit-decorated data-augmentation function
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class KeyStream:
    """Hands out a fresh subkey on each next_key() call (in Python)."""

    def __init__(self, seed):
        self._key = jax.random.key(seed)

    def next_key(self):
        self._key, subkey = jax.random.split(self._key)
        return subkey


stream = KeyStream(0)


@jax.jit
def augment(batch, key):
    noise_key, shift_key = jax.random.split(key)
    noise = 0.1 * jax.random.normal(noise_key, batch.shape)
    shift = jax.random.randint(shift_key, (), -2, 3)
    return jnp.roll(batch, shift, axis=-1) + noise


if __name__ == "__main__":
    batch = jnp.zeros((2, 6))
    outs = [augment(batch, stream.next_key()) for _ in range(4)]
    assert not bool(jnp.all(outs[0] == outs[1]))
    print("OK")
