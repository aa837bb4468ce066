# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/pyro-ppl/numpyro/commit/ba5125d0c67b9bac223be5d4402078011e858b01
# shown: KeyReuseError under jax_debug_key_reuse: the random-feature weights and the phase offsets are drawn from the same rng_key in init
# style: kernel object with an init(rng_key, shape) method that stores its random features on self
import sys

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class RandomFourierKernel:
    """Approximates an RBF kernel with cos(w x + b) features (Rahimi & Recht)."""

    def __init__(self, bandwidth=1.0):
        self.bandwidth = bandwidth
        self.weights = None
        self.phases = None

    def init(self, rng_key, particles_shape):
        self.weights = jax.random.normal(rng_key, particles_shape)  # expect
        self.phases = jax.random.uniform(rng_key, particles_shape, maxval=2 * jnp.pi)  # expect

    def features(self, x):
        return jnp.sqrt(2.0) * jnp.cos(x * self.weights / self.bandwidth + self.phases)

    def __call__(self, x, y):
        return jnp.mean(self.features(x) * self.features(y), axis=-1)


if __name__ == "__main__":
    kernel = RandomFourierKernel(bandwidth=0.5)
    particles = jnp.linspace(-1.0, 1.0, 8).reshape(4, 2)
    try:
        kernel.init(jax.random.key(11), particles.shape)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("gram diag", kernel(particles, particles))
