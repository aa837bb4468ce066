"""OPT020 with flowMC's resource-strategy bundles, which split the key they are given to
initialise their normalising flow (jim f819409, held-out set 3: `RQSpline_MALA_PT_Bundle(
rng_key=rng_key, ...)`, then `rng_key, subkey = jax.random.split(rng_key)` for the Sampler).
The optlint side needs no flowMC; the run needs flowMC 0.4.4 (skipped where it is absent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import opt020_lines, raises_key_reuse

SAMPLING = '''\
import jax
import jax.numpy as jnp
from flowMC.resource_strategy_bundle.RQSpline_MALA_PT import RQSpline_MALA_PT_Bundle


def logpdf(x, _):
    return -0.5 * jnp.sum(x ** 2)


def bundle_and_key(rng_key):
    bundle = RQSpline_MALA_PT_Bundle(
        rng_key=rng_key, n_chains=4, n_dims=2, logpdf=logpdf, n_local_steps=2,
        n_global_steps=2, n_training_loops=1, n_production_loops=1, n_epochs=1)
    rng_key, subkey = jax.random.split(rng_key)
    return jax.random.normal(subkey, (2,)), len(bundle.resources)
'''

# The fix: the bundle is given a key of its own.
SAMPLING_SPLIT = SAMPLING.replace(
    "    bundle = RQSpline_MALA_PT_Bundle(\n        rng_key=rng_key,",
    "    rng_key, bundle_key = jax.random.split(rng_key)\n"
    "    bundle = RQSpline_MALA_PT_Bundle(\n        rng_key=bundle_key,")


def _raises(source: str) -> bool:
    pytest.importorskip("flowMC")
    return raises_key_reuse(source, "bundle_and_key(jax.random.key(0))")


def test_a_key_given_to_a_bundle_then_split_again(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sampling.py", SAMPLING) == [14]


def test_a_bundle_given_a_key_of_its_own_is_quiet(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "sampling.py", SAMPLING_SPLIT) == []


def test_jax_checker_agrees() -> None:
    assert _raises(SAMPLING) and not _raises(SAMPLING_SPLIT)
