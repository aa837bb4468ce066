# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/danijar/dreamerv3/issues/11 ("RNG splitting": `RNG.next(amount)` kept `self.buffer = self.buffer[:amount]` instead of `self.buffer[amount:]`; "Good catch! ... Fixed in the newest commit"), fix commit https://github.com/danijar/dreamerv3/commit/84ecf191d967f787f5cc36298e69974854b0df9c ("Better parallel training and RNG fix.")
# shown: with two train devices, `_next_rngs` returns the same two keys on every train step, so step 1 and step 2 draw identical dropout masks on each device: prints HAZARD
# style: agent wrapper class owning a key pool object (reserve of pre-split keys), per-device keys stacked for a pmap-like train step (simulated with vmap over the device axis)
"""A JAX agent wrapper that hands each train step one key per device from a pool."""
import jax
import jax.numpy as jnp


class KeyPool:
    """Pre-splits keys in blocks so that most calls need no device round trip."""

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
            keys = self.buffer[:amount]  # expect
            self.buffer = self.buffer[:amount]
            return keys
        return self.buffer.pop(0)


def train_step(params, batch, rng):
    """One device's step: a dropout-regularised linear model."""
    keep = jax.random.bernoulli(rng, 0.8, batch.shape)  # expect
    hidden = jnp.where(keep, batch / 0.8, 0.0) @ params
    return jnp.mean(hidden ** 2), keep


class Agent:
    def __init__(self, seed, num_devices):
        self.rng = KeyPool(seed)
        self.num_devices = num_devices
        self.params = jax.random.normal(jax.random.PRNGKey(seed + 1), (8, 4))
        self._train = jax.jit(jax.vmap(train_step, in_axes=(None, 0, 0)))

    def _next_rngs(self, mirror=False):
        if self.num_devices == 1:
            return self.rng.next()
        if mirror:
            return jnp.repeat(self.rng.next()[None], self.num_devices, axis=0)
        return jnp.stack(self.rng.next(self.num_devices))

    def train(self, data):
        rngs = self._next_rngs()
        loss, masks = self._train(self.params, data, rngs)
        return loss, masks


def main() -> None:
    agent = Agent(seed=0, num_devices=2)
    data = jnp.ones((2, 32, 8))
    _, masks_1 = agent.train(data)
    _, masks_2 = agent.train(data)
    print("device 0 masks equal across steps:", bool(jnp.array_equal(masks_1[0], masks_2[0])))
    if bool(jnp.array_equal(masks_1, masks_2)):
        print("HAZARD: train steps 1 and 2 drew identical dropout masks on every device")


if __name__ == "__main__":
    main()
