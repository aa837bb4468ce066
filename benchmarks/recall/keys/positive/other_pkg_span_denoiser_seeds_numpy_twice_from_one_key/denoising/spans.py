"""Span corruption masks (T5-style), drawn with a NumPy generator seeded from a JAX key."""

import numpy as np


def random_spans_noise_mask(length, noise_density, key, mean_span_length=3.0):
    """Return (mask, roll_fraction): a boolean mask over `length` tokens and the roll it used."""
    np_rng = np.random.default_rng(np.array(key))
    num_noise = max(1, int(round(length * noise_density)))
    num_spans = max(1, int(round(num_noise / mean_span_length)))
    roll_fraction = np_rng.random()
    starts = np.sort(np_rng.choice(length, size=num_spans, replace=False))
    mask = np.zeros(length, dtype=bool)
    for start in starts:
        mask[start:start + int(mean_span_length)] = True
    return np.roll(mask, int(roll_fraction * length)), roll_fraction
