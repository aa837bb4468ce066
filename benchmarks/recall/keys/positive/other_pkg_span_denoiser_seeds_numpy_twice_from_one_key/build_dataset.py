"""Build a few span-denoising examples, one JAX key per document."""

import jax
import numpy as np

from denoising import MaskDenoiser

if __name__ == "__main__":
    denoiser = MaskDenoiser()
    document_keys = jax.random.split(jax.random.PRNGKey(0), 4)
    examples = [denoiser.sample(key, np.arange(64)) for key in document_keys]
    if all(ex.pivot_fraction == ex.roll_fraction for ex in examples):
        print("HAZARD: the pivot and the span roll came from the same uniform draw in every example")
