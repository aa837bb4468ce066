"""OPT020 on keys made in place from a literal seed (`normal(PRNGKey(0), ...)` beside
`uniform(PRNGKey(0), ...)`), a test's data and labels drawn from one key (issue #25, a numpyro
fix commit): every `PRNGKey(0)` is the same key, whether bound to a name or not. Seeds that
differ are two keys; a draw beside a split of one seed gives correlated values, not identical
ones. Reuses of keys made in place go to `--preview` (labelled by running on the package
benchmark, about half were true: tests compare two samplers on one key on purpose), unless one
sampler draws twice (held-out set 7, jax-lensing 3935130). The programs also run with JAX."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np

from conftest import opt020_findings, finding_line

MADE_IN_PLACE = '''\
import jax


def data_and_noise():
    data = jax.random.normal(jax.random.PRNGKey(0), (4,))
    noise = jax.random.normal(jax.random.PRNGKey(0), (4,))
    return data, noise


def named_then_in_place():
    key = jax.random.PRNGKey(3)
    data = jax.random.uniform(key, (4,))
    return data, jax.random.uniform(jax.random.PRNGKey(3), (4,))


def two_seeds():
    data = jax.random.normal(jax.random.PRNGKey(0), (4,))
    noise = jax.random.normal(jax.random.PRNGKey(1), (4,))
    return data, noise


def drawn_and_split():
    data = jax.random.normal(jax.random.PRNGKey(0), (4,))
    keys = jax.random.split(jax.random.PRNGKey(0))
    return data, keys
'''

NUMPYRO_RVS = '''\
from jax import random
import numpyro.distributions as dist


def test_regression():
    data = random.normal(random.PRNGKey(0), (30, 3))
    labels = dist.bernoulli(0.5).rvs(random_state=random.PRNGKey(0))
    return data, labels


def test_regression_fixed():
    data = random.normal(random.PRNGKey(0), (30, 3))
    labels = dist.bernoulli(0.5).rvs(random_state=random.PRNGKey(1))
    return data, labels
'''


def _findings(tmp_path: Path, name: str, source: str, *extra: str) -> dict[int, str]:
    return {finding_line(f): f["message"] for f in opt020_findings(tmp_path, name, source, *extra)}


def test_a_key_made_twice_in_place_is_one_key(tmp_path: Path) -> None:
    # One sampler twice from one seed is proven (`key_literal_seeds.same_sampler`); a draw
    # beside a split of that seed stays `--preview`.
    found = _findings(tmp_path, "seeds.py", MADE_IN_PLACE)
    assert sorted(found) == [6, 13]
    assert "makes the same key at every call" in found[6]
    preview = _findings(tmp_path, "seeds.py", MADE_IN_PLACE, "--preview")
    assert sorted(preview) == [6, 13, 24]
    assert "correlated, not identical" in preview[24]


def test_keys_made_in_place_when_run(tmp_path: Path) -> None:
    (tmp_path / "seeds.py").write_text(MADE_IN_PLACE)
    namespace = runpy.run_path(str(tmp_path / "seeds.py"))
    data, noise = namespace["data_and_noise"]()
    assert np.array_equal(data, noise)  # identical values: a reuse
    data, noise = namespace["two_seeds"]()
    assert not np.array_equal(data, noise)
    data, again = namespace["named_then_in_place"]()
    assert np.array_equal(data, again)


def test_numpyro_scipy_like_rvs_draws_from_its_random_state(tmp_path: Path) -> None:
    """numpyro's first distributions sampled with `rvs(random_state=key)`."""
    assert sorted(_findings(tmp_path, "test_model.py", NUMPYRO_RVS)) == []
    assert sorted(_findings(tmp_path, "test_model.py", NUMPYRO_RVS, "--preview")) == [7]
