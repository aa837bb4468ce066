"""OPT020 on one library sampler drawing twice, at two calls, from keys made in place from one
literal seed (issue #25, held-out set 7: jax-lensing 3935130's `sample_maps.py` adds shape noise
to both shear components, `std1 * jax.random.normal(jax.random.PRNGKey(42), gamma1.shape)` and
`std2 * jax.random.normal(jax.random.PRNGKey(42), gamma2.shape)`: e1 and e2 carry the same noise
map). Reuses of keys made in place are `--preview` (code compares two samplers on one key on
purpose); one sampler twice is the same numbers whatever was meant, and is proven. Two samplers,
a draw beside a split, and one call run again for each case of a loop stay `--preview`. Run with
JAX: the two noise maps are equal."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from conftest import finding_line, opt020_findings

SHEAR = '''\
import jax


def add_shape_noise(gamma1, gamma2, std1, std2):
    gamma1 = gamma1 + std1 * jax.random.normal(jax.random.PRNGKey(42), gamma1.shape)
    gamma2 = gamma2 + std2 * jax.random.normal(jax.random.PRNGKey(42), gamma2.shape)
    return gamma1, gamma2


def two_samplers(shape):
    data = jax.random.normal(jax.random.PRNGKey(0), shape)
    labels = jax.random.bernoulli(jax.random.PRNGKey(0), 0.5, shape)
    return data, labels


def per_case(shapes):
    return [jax.random.normal(jax.random.PRNGKey(0), shape) for shape in shapes]
'''


def _lines(tmp_path: Path, *extra: str) -> list[tuple[int, bool]]:
    """(line, shown only with --preview) of each finding."""
    return sorted((finding_line(finding), "[preview:" in finding["message"])
                  for finding in opt020_findings(tmp_path, "shear.py", SHEAR, *extra))


def test_one_sampler_twice_from_one_seed_is_proven(tmp_path: Path) -> None:
    assert _lines(tmp_path) == [(6, False)]


def test_two_samplers_stay_preview(tmp_path: Path) -> None:
    assert _lines(tmp_path, "--preview") == [(6, False), (12, True), (17, True)]


def test_the_two_noise_maps_are_equal() -> None:
    jax = pytest.importorskip("jax")
    namespace: dict[str, object] = {}
    exec(compile(SHEAR, "shear.py", "exec"), namespace)
    zeros = jax.numpy.zeros((4, 4))
    gamma1, gamma2 = namespace["add_shape_noise"](zeros, zeros, 1.0, 1.0)  # type: ignore[operator]
    assert np.array_equal(gamma1, gamma2)
