"""OPT020 on two draws from one literal seed where the second is made from the first's values
(issue #25; numpyro fix 345d155: a test's features `normal(PRNGKey(0), ...)`, then labels
`bernoulli(expit(features @ w)).rvs(random_state=PRNGKey(0))`). The two are parts of one joint
sample, meant to have independent noise: reported by default. Two draws from one literal seed
whose inputs do not come from each other (comparing two samplers on one key) stay `--preview`.
The programs also run with JAX: the labels are a function of the features' own bits."""

from __future__ import annotations

import runpy
from pathlib import Path

import jax
import numpy as np

from conftest import finding_line, opt020_findings

CHAINED = '''\
import jax
import jax.numpy as jnp


def features_then_labels():
    features = jax.random.normal(jax.random.PRNGKey(0), (200,))
    scaled = 2.0 * features
    probs = jax.nn.sigmoid(scaled)
    labels = jax.random.bernoulli(jax.random.PRNGKey(0), probs)
    return features, probs, labels


def two_samplers_compared():
    first = jax.random.normal(jax.random.PRNGKey(0), (200,))
    probs = jnp.full((200,), 0.5)
    second = jax.random.bernoulli(jax.random.PRNGKey(0), probs)
    return first, second


def features_then_labels_fixed():
    features = jax.random.normal(jax.random.PRNGKey(0), (200,))
    probs = jax.nn.sigmoid(2.0 * features)
    labels = jax.random.bernoulli(jax.random.PRNGKey(1), probs)
    return features, probs, labels
'''


# An inference run given data computed from the first draw is no part of the sample (numpyro
# 0.22.0 `test/test_pickle.py`: cluster assignments from `PRNGKey(0)`, then `mcmc.run(PRNGKey(0),
# data)`): it stays `--preview`, with the literal-seed policy.
INFERENCE = '''\
import jax
from numpyro.infer import MCMC, NUTS


def fit(model):
    assignments = jax.random.categorical(jax.random.PRNGKey(0), jax.numpy.zeros(3), shape=(50,))
    data = 2.0 * assignments
    mcmc = MCMC(NUTS(model), num_warmup=10, num_samples=10)
    mcmc.run(jax.random.PRNGKey(0), data)
    return mcmc.get_samples()
'''


def _lines(tmp_path: Path, *extra: str, source: str = CHAINED) -> dict[int, str]:
    return {finding_line(f): f["message"]
            for f in opt020_findings(tmp_path, "data.py", source, *extra)}


def test_second_draw_made_from_the_first_is_reported(tmp_path: Path) -> None:
    found = _lines(tmp_path)
    assert sorted(found) == [9]
    assert "computed from the first draw's values" in found[9]
    assert "`probs`" in found[9]


def test_draws_with_inputs_of_their_own_stay_preview(tmp_path: Path) -> None:
    preview = _lines(tmp_path, "--preview")
    assert sorted(preview) == [9, 16]
    assert "made in place from one literal seed" in preview[16]


def test_an_inference_run_on_the_data_stays_preview(tmp_path: Path) -> None:
    assert _lines(tmp_path, source=INFERENCE) == {}
    assert sorted(_lines(tmp_path, "--preview", source=INFERENCE)) == [9]


def test_labels_are_a_function_of_the_features_bits(tmp_path: Path) -> None:
    (tmp_path / "data.py").write_text(CHAINED)
    namespace = runpy.run_path(str(tmp_path / "data.py"))
    features, probs, labels = namespace["features_then_labels"]()
    from_features = jax.scipy.stats.norm.cdf(features) < probs
    assert np.array_equal(labels, from_features)  # the label noise is the features' noise
    features, probs, labels = namespace["features_then_labels_fixed"]()
    assert not np.array_equal(labels, jax.scipy.stats.norm.cdf(features) < probs)
