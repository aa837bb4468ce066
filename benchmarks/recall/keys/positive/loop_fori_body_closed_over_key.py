# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/gchq/coreax/issues/375
# shown: KeyReuseError under jax_debug_key_reuse: every fori_loop iteration draws the same perturbation from a closed-over key
# style: sliced score matching trainer class, noise-conditional fori_loop over noise scales
import sys

import jax
import jax.numpy as jnp
from jax import random

jax.config.update("jax_debug_key_reuse", True)


class SlicedScoreMatching:
    def __init__(self, sigmas, num_random_vectors=2):
        self.sigmas = jnp.asarray(sigmas)
        self.num_random_vectors = num_random_vectors

    def score(self, params, x):
        return -(x - params)

    def sliced_loss(self, params, x, key):
        v = random.normal(key, (self.num_random_vectors,) + x.shape)
        s = self.score(params, x)
        return jnp.mean(jnp.sum(v * s, axis=-1) ** 2)

    def noise_conditional_loss(self, params, x, key):
        def body(i, total):
            sigma = self.sigmas[i]
            perturbed = x + sigma * random.normal(key, x.shape)  # expect
            return total + sigma ** 2 * self.sliced_loss(params, perturbed, random.fold_in(key, i))

        return jax.lax.fori_loop(0, self.sigmas.shape[0], body, 0.0)  # expect


if __name__ == "__main__":
    trainer = SlicedScoreMatching(sigmas=[1.0, 0.5, 0.25])
    try:
        trainer.noise_conditional_loss(jnp.zeros(3), jnp.ones(3), random.key(0))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
