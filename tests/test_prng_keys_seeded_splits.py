"""OPT020 on two helpers that make their keys from one default seed (dynamax's
`cmgf_logistic_regression_demo.ipynb`: `generate_dataset(key=0)` only splits its key,
`laplace_inference(key=0)` draws from its key directly). The keys are two objects to JAX's
checker, and a split of one beside a draw from the other gives correlated values, never
identical ones: the finding goes to `--preview`, as for the pair written in place. Two helpers
that both draw from their key directly (or both split it) repeat values and stay reported. The
programs also run with JAX's key-reuse checker and compare the values."""

from __future__ import annotations

import runpy
from pathlib import Path

import numpy as np

from conftest import finding_line, opt020_findings

SOURCE = '''\
import jax
import jax.numpy as jnp
import jax.random as jr


def generate_dataset(num_points=8, key=0):
    if isinstance(key, int):
        key = jr.PRNGKey(key)
    key0, key1 = jr.split(key, 2)
    x = jr.normal(key0, (num_points, 2))
    idx = jr.permutation(key1, num_points)
    return x[idx]


def laplace_inference(x, key=0):
    if isinstance(key, int):
        key = jr.PRNGKey(key)
    w0 = jr.multivariate_normal(key, jnp.zeros(2), jnp.eye(2))
    return x @ w0


def noisy_labels(x, key=0):
    if isinstance(key, int):
        key = jr.PRNGKey(key)
    return x.sum(axis=1) + jr.normal(key, (x.shape[0],))


def split_then_drawn():
    x = generate_dataset()
    return x, laplace_inference(x)


def drawn_twice():
    x = jnp.ones((8, 2))
    w = laplace_inference(x)
    return w, noisy_labels(x)
'''


def _findings(tmp_path: Path, *extra: str) -> dict[int, str]:
    return {finding_line(f): f["message"]
            for f in opt020_findings(tmp_path, "demo.py", SOURCE, *extra)}


def test_a_seeded_split_beside_a_seeded_draw_is_in_preview(tmp_path: Path) -> None:
    found = _findings(tmp_path)
    assert 30 not in found  # split_then_drawn: correlated, not identical
    assert 36 in found  # drawn_twice: both draw from the key of seed 0 directly
    preview = _findings(tmp_path, "--preview")
    assert 30 in preview


def test_the_seeded_helpers_when_run(tmp_path: Path) -> None:
    import jax

    (tmp_path / "demo.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "demo.py"))
    with jax.debug_key_reuse(True):
        x, projected = namespace["split_then_drawn"]()
        w, labels = namespace["drawn_twice"]()
    split_keys = np.asarray(jax.random.key_data(jax.random.split(jax.random.PRNGKey(0), 2)))
    drawn = np.asarray(jax.random.multivariate_normal(
        jax.random.PRNGKey(0), np.zeros(2), np.eye(2)))
    # The split's keys and what is drawn from them share no value with the direct draw.
    assert not np.intersect1d(drawn, np.asarray(x)).size
    assert not np.intersect1d(drawn.view(np.uint32), split_keys).size
    # Two direct draws from the key of one seed: the same normal numbers (w is x @ w0 with x
    # all ones, so w's items are sums of them; the labels' noise starts with the same bits).
    w0 = np.asarray(jax.random.normal(jax.random.PRNGKey(0), (2,)))
    noise = np.asarray(labels) - 2.0
    assert np.allclose(noise[:2], w0)
