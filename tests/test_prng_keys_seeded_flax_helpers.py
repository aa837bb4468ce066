"""OPT020 and helpers making their key from a default seed (issue #25, set 3's dynamax
`ekf_mlp` and rebayes notebooks): `sample_observations(n, key=0)` splits the key of seed 0 and
draws from it; `get_params(dim, key=0)` gives the key of seed 0 to flax's `init` alone, which
draws from keys it folds out of it (`key_derived.py`). The two repeat no draw of each other:
silent. Either helper called twice repeats its own: reported."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from conftest import opt020_lines

SOURCE = '''\
import flax.linen as nn
import jax.numpy as jnp
import jax.random as jr


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)


def sample_observations(n, key=0):
    if isinstance(key, int):
        key = jr.PRNGKey(key)
    keys = jr.split(key, 3)
    return jr.normal(keys[0], (n,)) + jr.uniform(keys[1], (n,))


def get_params(dim, key=0):
    if isinstance(key, int):
        key = jr.PRNGKey(key)
    model = MLP()
    params = model.init(key, jnp.ones((dim,)))
    return model, params


def main():
    x = sample_observations(10)
    model, params = get_params(1)
    {again}
    return x, params, other
'''

AGAIN = 30


@pytest.mark.parametrize(("again", "expected"), [
    ("other = None", []),
    ("other = get_params(1)", [AGAIN]),  # the same parameters twice
    ("other = sample_observations(10)", [AGAIN]),  # the same samples twice
])
def test_a_flax_helper_beside_a_sampler_of_one_seed(tmp_path: Path, again: str,
                                                      expected: list[int]) -> None:
    assert opt020_lines(tmp_path, "seeds.py", SOURCE.format(again=again)) == expected


def test_the_helpers_when_run(tmp_path: Path) -> None:
    """No key `init` draws from is one the sampler splits or draws from, and JAX's checker
    stays silent for both helpers run on typed keys of one seed."""
    pytest.importorskip("flax")
    import jax
    import numpy as np

    path = tmp_path / "seeds.py"
    path.write_text(SOURCE.format(again="other = None"))
    namespace = runpy.run_path(str(path))
    seen: list[np.ndarray] = []
    from jax._src import random as private  # what jax.nn.initializers call

    samplers = ("normal", "uniform", "truncated_normal")
    real = {name: getattr(jax.random, name) for name in samplers}

    def recording(name: str):  # noqa: ANN202
        def draw(key, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
            seen.append(np.asarray(jax.random.key_data(key)).ravel())
            return real[name](key, *args, **kwargs)
        return draw

    for name in samplers:  # `jr` calls through `jax.random`, flax's initializers the other
        for module in (jax.random, private):
            setattr(module, name, recording(name))
    try:
        namespace["sample_observations"](10)
        sampled = len(seen)
        namespace["get_params"](1)
    finally:
        for name in samplers:
            for module in (jax.random, private):
                setattr(module, name, real[name])
    assert 0 < sampled < len(seen)
    assert not any((a == b).all() for a in seen[:sampled] for b in seen[sampled:])
    with jax.debug_key_reuse(True):
        namespace["sample_observations"](10, jax.random.key(0))
        namespace["get_params"](1, jax.random.key(0))
