# recall-case: positive
# rule: OPT020
# class: other-library
# source: https://github.com/stanford-crfm/levanter/commit/dd38c5d2d9012bfd71a3d74fa9ef9d520760e6a0
# shown: HAZARD: the pivot and the span roll came from the same uniform draw in every example (two NumPy generators seeded from one key)
# style: a data package of several modules: examples.py seeds NumPy from the key, spans.py seeds NumPy again from the same key
from dataclasses import dataclass

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
        np_rng = np.random.default_rng(np.array(key))  # expect
        pivot_fraction = np_rng.random()
        pivot = 8 + int(pivot_fraction * (len(tokens) - 8))
        tokens = tokens[:pivot]
        noise_mask, roll_fraction = random_spans_noise_mask(  # expect
            len(tokens), self.mask_prob, key, self.mean_span_length
        )
        inputs = np.where(noise_mask, self.sentinel, tokens)
        targets = np.where(noise_mask, tokens, self.sentinel)
        return DenoisingExample(inputs, targets, pivot_fraction, roll_fraction)
