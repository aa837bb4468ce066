# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/rlouf/mcx/issues/90 ("Unintuitive results when sampling from the prior": `sample_joint(rng_key=rng_key, model=model, ...)` on `μ <~ Normal(178, 20)`, `σ <~ Uniform(0, 50)`, `h <~ Normal(μ, σ)` did not match Statistical Rethinking's prior predictive; maintainer: the fix is "adding a splitting statement" since every `sample()` got the same `rng_key`)
# shown: the joint sampler walks the model graph and calls `node.distribution(...).sample(rng_key, ...)` for every node with the one per-sample key, so `h`'s standard-normal noise is `μ`'s: `(h-μ)/σ` equals `(μ-178)/20` in every draw and corr(μ, h) is 0.945 instead of ~0.57 with independent draws (printed `HAZARD: prior predictive h is a deterministic function of μ: corr(μ, h) = 0.945, (h-μ)/σ == (μ-178)/20 for every draw`), and under jax_debug_key_reuse the second node raises KeyReuseError
# style: small probabilistic-programming library: distribution classes with sample/logpdf, a model decorator that records random-variable nodes in a graph, a vmapped `sample_joint(rng_key, model, model_args, num_samples)` forward sampler, then the user's Statistical Rethinking prior-predictive script
"""A tiny model-graph PPL and the Statistical Rethinking height prior predictive."""
import sys
from dataclasses import dataclass
from collections.abc import Callable

import jax
import jax.numpy as jnp
import numpy as np


class Normal:
    def __init__(self, mu, sigma):
        self.mu, self.sigma = mu, sigma

    def sample(self, rng_key, sample_shape=()):
        return self.mu + self.sigma * jax.random.normal(rng_key, sample_shape)

    def logpdf(self, x):
        return -0.5 * ((x - self.mu) / self.sigma) ** 2 - jnp.log(self.sigma) - 0.5 * jnp.log(2 * jnp.pi)


class Uniform:
    def __init__(self, lower, upper):
        self.lower, self.upper = lower, upper

    def sample(self, rng_key, sample_shape=()):
        return jax.random.uniform(rng_key, sample_shape, minval=self.lower, maxval=self.upper)

    def logpdf(self, x):
        return jnp.where((x >= self.lower) & (x <= self.upper), -jnp.log(self.upper - self.lower), -jnp.inf)


@dataclass
class RandomVariable:
    name: str
    distribution: Callable
    parents: list[str]


class model:
    """Decorator: the function returns its random variables in topological order."""

    def __init__(self, fn):
        self.fn = fn
        self.graph: list[RandomVariable] = fn()


def sample_joint(rng_key, model, model_args=(), num_samples=1000):
    def one_sample(rng_key):
        values = {}
        for node in model.graph:
            dist_obj = node.distribution(*[values[p] for p in node.parents], *model_args)
            values[node.name] = dist_obj.sample(rng_key)  # expect
        return values

    keys = jax.random.split(rng_key, num_samples)
    return jax.vmap(one_sample)(keys)


@model
def height_model():
    return [
        RandomVariable("mu", lambda: Normal(178.0, 20.0), []),
        RandomVariable("sigma", lambda: Uniform(0.0, 50.0), []),
        RandomVariable("h", lambda mu, sigma: Normal(mu, sigma), ["mu", "sigma"]),
    ]


if __name__ == "__main__":
    rng_key = jax.random.PRNGKey(0)
    prior_predictive = sample_joint(rng_key=rng_key, model=height_model, model_args=(), num_samples=10_000)
    mu, sigma, h = (np.asarray(prior_predictive[k]) for k in ("mu", "sigma", "h"))
    corr = np.corrcoef(mu, h)[0, 1]
    print(f"h: mean {h.mean():.1f}, std {h.std():.1f}; corr(mu, h) = {corr:.3f}")
    if np.allclose((h - mu) / sigma, (mu - 178.0) / 20.0, atol=1e-3):
        print(f"HAZARD: prior predictive h is a deterministic function of μ: corr(μ, h) = {corr:.3f}, "
              "(h-μ)/σ == (μ-178)/20 for every draw")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        sample_joint(jax.random.key(0), height_model, num_samples=10)
    except jax.errors.KeyReuseError as err:
        print(f"HAZARD: KeyReuseError: {str(err).splitlines()[0]}")
        sys.exit(0)
    print("no KeyReuseError")
