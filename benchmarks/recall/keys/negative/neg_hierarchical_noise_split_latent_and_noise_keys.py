# recall-case: negative
# rule: OPT020
# class: basic
# source: https://github.com/jax-ml/jax/issues/16845
# shown: runs with jax_debug_key_reuse on; the latent mean and the noise use the two halves of one split; variance ~2; prints OK
# style: a synthetic-data simulator class whose method draws a latent mean and then noise around it
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class LatentMeanSimulator:
    """Simulates y = z + e with z ~ N(0, I) and e ~ N(0, I), so Var(y) should be 2."""

    def __init__(self, dim, num_points):
        self.dim = dim
        self.num_points = num_points

    def simulate(self, key):
        latent_key, noise_key = jax.random.split(key)
        mean = jnp.zeros(self.dim)
        cov = jnp.eye(self.dim)
        latent = jax.random.multivariate_normal(latent_key, mean, cov, shape=(self.num_points,))
        observed = jax.random.multivariate_normal(noise_key, latent, cov)
        return latent, observed


if __name__ == "__main__":
    sim = LatentMeanSimulator(dim=1, num_points=10000)
    _, observed = sim.simulate(jax.random.key(1337))
    variance = float(jnp.var(observed))
    assert 1.7 < variance < 2.3, variance
    print("OK")
