# recall-case: negative
# rule: OPT020
# class: loop
# source: https://github.com/rlouf/mcx/issues/90 (the fix the maintainer describes: a splitting statement so that each `sample()` gets its own key)
# shown: the joint sampler splits the per-sample key into one key per graph node before drawing; it first runs `jax.eval_shape` of the sampler on the caller's key to size the output buffers (the key only gives shapes at trace time, nothing is drawn); corr(mu, h) is ~0.57 as for independent draws and with typed keys under jax_debug_key_reuse the run raises nothing; prints OK
# style: small probabilistic-programming library: distribution classes with sample/logpdf, a model decorator that records random-variable nodes in a graph, a vmapped `sample_joint(rng_key, model, model_args, num_samples)` forward sampler, then the user's Statistical Rethinking prior-predictive script
"""A tiny model-graph PPL and the Statistical Rethinking height prior predictive."""
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
        node_keys = jax.random.split(rng_key, len(model.graph))
        for node, node_key in zip(model.graph, node_keys, strict=True):
            dist_obj = node.distribution(*[values[p] for p in node.parents], *model_args)
            values[node.name] = dist_obj.sample(node_key)
        return values

    # Size the output first: the key only gives the trace its shapes here.
    out_shapes = jax.eval_shape(one_sample, rng_key)
    print("sites:", {name: s.shape for name, s in out_shapes.items()})
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
    jax.config.update("jax_debug_key_reuse", True)
    rng_key = jax.random.key(0)
    prior_predictive = sample_joint(rng_key=rng_key, model=height_model, model_args=(), num_samples=10_000)
    mu, sigma, h = (np.asarray(prior_predictive[k]) for k in ("mu", "sigma", "h"))
    corr = np.corrcoef(mu, h)[0, 1]
    print(f"h: mean {h.mean():.1f}, std {h.std():.1f}; corr(mu, h) = {corr:.3f}")
    assert 0.5 < corr < 0.65
    print("OK")
