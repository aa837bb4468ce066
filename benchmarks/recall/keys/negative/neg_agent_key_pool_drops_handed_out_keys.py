# recall-case: negative
# rule: OPT020
# class: calls-and-state
# source: https://github.com/danijar/dreamerv3/issues/11 (the fix the reporter proposed: `self.buffer = self.buffer[amount:]`, so handed-out keys leave the pool)
# shown: the pool removes every key it hands out, so train steps 1 and 2 get different per-device keys and draw different dropout masks; prints OK
# style: agent wrapper class owning a key pool object (reserve of pre-split keys), per-device keys stacked for a pmap-like train step (simulated with vmap over the device axis)
"""A JAX agent wrapper whose key pool hands each key out once."""
import jax
import jax.numpy as jnp


class KeyPool:
    def __init__(self, seed=0, reserve=16):
        self.rng = jax.random.PRNGKey(seed)
        self.reserve = reserve
        self.buffer = []

    def next(self, amount=None):
        if len(self.buffer) < (amount or 1):
            keys = jax.random.split(self.rng, max((amount or 1) + 1, self.reserve))
            self.rng = keys[0]
            self.buffer = list(keys[1:])
        if amount:
            keys = self.buffer[:amount]
            self.buffer = self.buffer[amount:]
            return keys
        return self.buffer.pop(0)


def train_step(params, batch, rng):
    keep = jax.random.bernoulli(rng, 0.8, batch.shape)
    hidden = jnp.where(keep, batch / 0.8, 0.0) @ params
    return jnp.mean(hidden ** 2), keep


class Agent:
    def __init__(self, seed, num_devices):
        self.rng = KeyPool(seed)
        self.num_devices = num_devices
        self.params = jax.random.normal(jax.random.PRNGKey(seed + 1), (8, 4))
        self._train = jax.jit(jax.vmap(train_step, in_axes=(None, 0, 0)))

    def _next_rngs(self):
        if self.num_devices == 1:
            return self.rng.next()
        return jnp.stack(self.rng.next(self.num_devices))

    def train(self, data):
        return self._train(self.params, data, self._next_rngs())


def main() -> None:
    agent = Agent(seed=0, num_devices=2)
    data = jnp.ones((2, 32, 8))
    _, masks_1 = agent.train(data)
    _, masks_2 = agent.train(data)
    assert not bool(jnp.array_equal(masks_1[0], masks_2[0]))
    assert not bool(jnp.array_equal(masks_1[0], masks_1[1]))
    print("OK")


if __name__ == "__main__":
    main()
