# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/jax-ml/jax/issues/16845
# shown: KeyReuseError under jax_debug_key_reuse; with it off, the simulated sum has variance ~4 instead of 2
# style: a synthetic-data simulator class whose method draws a latent mean and then noise around it
import sys

import jax
import jax.numpy as jnp


class LatentMeanSimulator:
    """Simulates y = z + e with z ~ N(0, I) and e ~ N(0, I), so Var(y) should be 2."""

    def __init__(self, dim, num_points):
        self.dim = dim
        self.num_points = num_points

    def simulate(self, key):
        mean = jnp.zeros(self.dim)
        cov = jnp.eye(self.dim)
        latent = jax.random.multivariate_normal(key, mean, cov, shape=(self.num_points,))  # expect
        observed = jax.random.multivariate_normal(key, latent, cov)  # expect
        return latent, observed


if __name__ == "__main__":
    sim = LatentMeanSimulator(dim=1, num_points=10000)
    _, observed = sim.simulate(jax.random.key(1337))
    variance = float(jnp.var(observed))
    if variance > 3.0:
        print(f"HAZARD: variance of the simulated sum is {variance:.2f}, expected 2.0 (latent and noise drew the same numbers)")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        sim.simulate(jax.random.key(1337))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
