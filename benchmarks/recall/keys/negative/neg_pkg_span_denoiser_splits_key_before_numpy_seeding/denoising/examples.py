# recall-case: negative
# rule: OPT020
# class: other-library
# source: https://github.com/stanford-crfm/levanter/commit/dd38c5d2d9012bfd71a3d74fa9ef9d520760e6a0
# shown: the key is split before NumPy is seeded, so the pivot and the span draws come from different streams; prints OK
# style: a data package of several modules: examples.py seeds NumPy from a split-off key, spans.py seeds NumPy from the rest
from dataclasses import dataclass

import jax
import numpy as np

from denoising.spans import random_spans_noise_mask


@dataclass
class DenoisingExample:
    inputs: np.ndarray
    targets: np.ndarray
    pivot_fraction: float
    roll_fraction: float


@dataclass(frozen=True)
class MaskDenoiser:
    mask_prob: float = 0.15
    mean_span_length: float = 3.0
    sentinel: int = -1

    def sample(self, key, tokens):
        this_key, key = jax.random.split(key)
        np_rng = np.random.default_rng(np.array(this_key))
        pivot_fraction = np_rng.random()
        pivot = 8 + int(pivot_fraction * (len(tokens) - 8))
        tokens = tokens[:pivot]
        noise_mask, roll_fraction = random_spans_noise_mask(
            len(tokens), self.mask_prob, key, self.mean_span_length
        )
        inputs = np.where(noise_mask, self.sentinel, tokens)
        targets = np.where(noise_mask, tokens, self.sentinel)
        return DenoisingExample(inputs, targets, pivot_fraction, roll_fraction)
