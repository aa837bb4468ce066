# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/gwkokab/gwkokab/commit/ed7ba4e1ce9616f5c38487b98b1564a73e98b254
# shown: two population generators built after one init_rng_seed() draw identical first samples: each instance splits the same class-level key
# style: mixin giving every subclass an rng_key property backed by a key stored on the class
import sys

import jax
import jax.numpy as jnp


class PRNGKeyMixin:
    _rng_key: jax.Array

    @classmethod
    def init_rng_seed(cls, seed: int) -> None:
        cls._rng_key = jax.random.key(seed)

    @property
    def rng_key(self) -> jax.Array:
        # Reads the class key on first use, then stores the advanced key on the instance only.
        self._rng_key, subkey = jax.random.split(self._rng_key)  # expect
        return subkey


class MassPopulation(PRNGKeyMixin):
    def __init__(self, alpha: float):
        self.alpha = alpha

    def sample(self, n: int) -> jax.Array:
        u = jax.random.uniform(self.rng_key, (n,))
        return 5.0 * (1.0 - u) ** (-1.0 / self.alpha)


class SpinPopulation(PRNGKeyMixin):
    def sample(self, n: int) -> jax.Array:
        return jax.random.uniform(self.rng_key, (n,), minval=-1.0, maxval=1.0)


if __name__ == "__main__":
    PRNGKeyMixin.init_rng_seed(37)
    light = MassPopulation(alpha=2.5)
    heavy = MassPopulation(alpha=1.5)
    spins = SpinPopulation()
    m_light = light.sample(4)  # expect
    m_heavy = heavy.sample(4)  # expect
    s = spins.sample(4)
    u_light = 1.0 - (m_light / 5.0) ** (-2.5)
    u_heavy = 1.0 - (m_heavy / 5.0) ** (-1.5)
    print("light", m_light, "heavy", m_heavy, "spins", s)
    if bool(jnp.allclose(u_light, u_heavy, atol=1e-5)):
        print("HAZARD: both populations were drawn from the same uniforms:", u_light)
        sys.exit(1)
