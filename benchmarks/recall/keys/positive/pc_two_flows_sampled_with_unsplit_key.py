# recall-case: positive
# rule: OPT020
# class: project-consumer
# source: https://github.com/nuclear-multimessenger-astronomy/jester/pull/55
# shown: the two pulsars' pre-sampled masses come from identical base noise: both flows' sample() get the unsplit key (the split keys are unused), then KeyReuseError under jax_debug_key_reuse
# style: likelihood class that pre-samples from two trained normalizing flows (project flow class with sample(key, shape)) in __init__
import sys

import jax
import jax.numpy as jnp


class AffineFlow:
    """A one-layer affine normalizing flow over (mass, radius)."""

    def __init__(self, shift, log_scale):
        self.shift = jnp.asarray(shift)
        self.log_scale = jnp.asarray(log_scale)

    def sample(self, key, sample_shape):
        base = jax.random.normal(key, sample_shape + self.shift.shape)
        return self.shift + jnp.exp(self.log_scale) * base


class NICERLikelihood:
    def __init__(self, amsterdam_flow, maryland_flow, n_masses, seed):
        key = jax.random.key(seed)
        key_amsterdam, key_maryland = jax.random.split(key)
        amsterdam_samples = amsterdam_flow.sample(key, (n_masses,))  # expect
        maryland_samples = maryland_flow.sample(key, (n_masses,))  # expect
        self.amsterdam_masses = amsterdam_samples[:, :1]
        self.maryland_masses = maryland_samples[:, :1]
        self.amsterdam_flow, self.maryland_flow = amsterdam_flow, maryland_flow


if __name__ == "__main__":
    ams = AffineFlow([1.4, 12.0], [-2.0, -0.5])
    mar = AffineFlow([1.5, 13.0], [-1.5, -0.2])
    like = NICERLikelihood(ams, mar, n_masses=5, seed=7)
    za = (like.amsterdam_masses[:, 0] - ams.shift[0]) / jnp.exp(ams.log_scale[0])
    zm = (like.maryland_masses[:, 0] - mar.shift[0]) / jnp.exp(mar.log_scale[0])
    print("base noise", za, zm)
    if bool(jnp.allclose(za, zm, atol=1e-5)):
        print("HAZARD: both flows' mass samples come from the same base noise:", za[:3])
    jax.config.update("jax_debug_key_reuse", True)
    try:
        NICERLikelihood(ams, mar, n_masses=5, seed=7)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
