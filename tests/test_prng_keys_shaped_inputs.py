"""OPT020 on a draw that reaches only a model's `init` as an input and a size (issue #25;
enn `networks/hypermodels.py:410` in `benchmarks/repo_opt020_labels.tsv`: `hk.PRNGSequence(seed)`
made twice, the first sequence's draw `index` giving only `index_dim, = index.shape`, a size for
the prior's layers, and a dummy input to `prior.init`). A haiku `transform(f).init` builds
parameters from its key and the shapes alone of its inputs, so the draw reaches no result;
where the draw is returned too, the reuse is still found. The run needs haiku and flax: the
parameters are equal for inputs of one shape drawn from two keys (flax's `Dense.init` too),
while `transform_with_state(f).init`'s state (a BatchNorm's averages) is not, which is why that
transform has no row."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from conftest import opt020_lines

SOURCE = '''\
import haiku as hk
import jax
import jax.numpy as jnp


class Prior(hk.Module):
    def __init__(self, index_dim):
        super().__init__()
        self.index_dim = index_dim

    def __call__(self, x, z):
        return hk.Linear(self.index_dim)(x) * jnp.sum(z)


def prior_params(seed, dummy_input):
    rng = hk.PRNGSequence(seed)
    index = jax.random.normal(next(rng), (3,))
    index_dim, = index.shape

    def prior_net(x, z):
        return Prior(index_dim=index_dim)(x, z)

    prior = hk.without_apply_rng(hk.transform(prior_net))
    rng = hk.PRNGSequence(seed)
    return prior.init(next(rng), dummy_input, index)


def prior_params_and_index(seed, dummy_input):
    rng = hk.PRNGSequence(seed)
    index = jax.random.normal(next(rng), (3,))
    index_dim, = index.shape

    def prior_net(x, z):
        return Prior(index_dim=index_dim)(x, z)

    prior = hk.without_apply_rng(hk.transform(prior_net))
    rng = hk.PRNGSequence(seed)
    return prior.init(next(rng), dummy_input, index), index
'''


def test_a_draw_given_only_to_init_and_as_a_size_is_no_draw(tmp_path: Path) -> None:
    assert opt020_lines(tmp_path, "prior.py", SOURCE) == [37]


def test_the_priors_when_run(tmp_path: Path) -> None:
    pytest.importorskip("haiku")
    flax_linen = pytest.importorskip("flax.linen")
    import jax
    import numpy as np

    (tmp_path / "prior.py").write_text(SOURCE)
    namespace = runpy.run_path(str(tmp_path / "prior.py"))
    dummy = np.ones((2, 4), np.float32)
    hk = namespace["hk"]
    forward = hk.without_apply_rng(hk.transform(lambda x, z: namespace["Prior"](3)(x, z)))
    one, two = (jax.random.normal(jax.random.key(k), (3,)) for k in (1, 2))
    key = jax.random.key(0)
    leaves = [jax.tree_util.tree_leaves(forward.init(key, dummy, z)) for z in (one, two)]
    assert all(np.array_equal(a, b) for a, b in zip(*leaves, strict=True))

    dense = flax_linen.Dense(3)
    assert all(np.array_equal(a, b) for a, b in zip(
        *(jax.tree_util.tree_leaves(dense.init(key, x)) for x in (dummy, dummy * 5)),
        strict=True))

    stateful = hk.transform_with_state(
        lambda x: hk.BatchNorm(True, True, 0.9)(x, is_training=True))
    states = [stateful.init(key, x)[1] for x in (dummy, dummy * 5)]
    assert not all(np.array_equal(a, b) for a, b in zip(
        *(jax.tree_util.tree_leaves(s) for s in states), strict=True))
