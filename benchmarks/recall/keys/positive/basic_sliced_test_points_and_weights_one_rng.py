# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/ott-jax/ott/commit/759915755b7f6b50544891a0317a9801ae72e2ed ("bug in rng handling in test")
# shown: the sliced-Wasserstein test drew `x = uniform(rng, (n, dim))`, `y = uniform(rng, (m, dim))`, `a = uniform(rng, (n,))`, `b = uniform(rng, (m,))` from the fixture's one `rng`: the first 12 target points are the 12 source points and the weights repeat the points' coordinates; with jax_debug_key_reuse the second draw raises KeyReuseError
# style: library test module in pytest style: a `rng` fixture, a `TestSliced` class whose test builds two weighted point clouds, a small sliced-Wasserstein implementation under test, and a `__main__` block that runs the test
"""Tests for a sliced Wasserstein distance between weighted point clouds."""
import sys

import jax
import jax.numpy as jnp
import numpy as np


def _weighted_quantiles(values, weights, levels):
    order = jnp.argsort(values)
    cdf = jnp.cumsum(weights[order])
    idx = jnp.clip(jnp.searchsorted(cdf, levels), 0, values.shape[0] - 1)
    return values[order][idx]


def sliced_w(x, y, a, b, proj_key=None, n_proj=13, p=1.3, n_levels=64):
    """Mean over random 1-D projections of the p-Wasserstein distance between (x, a) and (y, b)."""
    if proj_key is None:
        proj_key = jax.random.key(0)
    dirs = jax.random.normal(proj_key, (x.shape[1], n_proj))
    dirs = dirs / jnp.linalg.norm(dirs, axis=0, keepdims=True)
    levels = (jnp.arange(n_levels) + 0.5) / n_levels

    def one_projection(d):
        qx = _weighted_quantiles(x @ d, a, levels)
        qy = _weighted_quantiles(y @ d, b, levels)
        return jnp.mean(jnp.abs(qx - qy) ** p)

    return jnp.mean(jax.vmap(one_projection, in_axes=1)(dirs))


def rng_fixture(seed: int = 0) -> jax.Array:
    """What conftest.py's `rng` fixture returns."""
    return jax.random.key(seed)


class TestSliced:
    def test_random_projs(self, rng):
        n, m, dim = 12, 17, 5
        x = jax.random.uniform(rng, (n, dim))  # expect
        y = jax.random.uniform(rng, (m, dim))  # expect
        a = jax.random.uniform(rng, (n,))  # expect
        b = jax.random.uniform(rng, (m,))  # expect
        a /= jnp.sum(a)
        b /= jnp.sum(b)

        out = sliced_w(x, y, a, b, n_proj=13)
        np.testing.assert_array_less(0.0, out)

        out_self = sliced_w(x, x, a, a, n_proj=13)
        np.testing.assert_allclose(out_self, 0.0, atol=1e-6)
        return x, y, a, b


if __name__ == "__main__":
    x, y, a, b = TestSliced().test_random_projs(rng_fixture())
    print("x[0]:", x[0], " y[0]:", y[0])
    if bool(jnp.array_equal(x, y[: x.shape[0]])):
        print("HAZARD: the first 12 target points y are exactly the 12 source points x (one rng for both clouds)")

    jax.config.update("jax_debug_key_reuse", True)
    try:
        TestSliced().test_random_projs(rng_fixture(1))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
