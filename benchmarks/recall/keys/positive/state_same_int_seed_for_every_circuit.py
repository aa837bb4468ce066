# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/AUTODIAL/AutoEIS/issues/46
# source: https://github.com/AUTODIAL/AutoEIS/commit/0f6ff5020cb685de5230e863cdc50bd68d228847
# shown: two circuits fitted with the same int seed get identical random-walk proposal noise (the callee makes PRNGKey(seed) each call)
# style: per-circuit Bayesian fit driver mapping one seed over a list of jobs
import sys
from functools import partial

import jax
import jax.numpy as jnp


def perform_inference(observed, seed, num_samples=50, step=0.2):
    key = jax.random.PRNGKey(seed)  # expect
    key, subkey = jax.random.split(key)

    def log_post(theta):
        return -0.5 * jnp.sum((observed - theta) ** 2)

    def step_fn(theta, k):
        proposal = theta + step * jax.random.normal(k, theta.shape)
        return proposal, proposal - theta

    _, increments = jax.lax.scan(step_fn, jnp.zeros_like(observed), jax.random.split(subkey, num_samples))
    return increments


def fit_all(datasets, seed):
    seeds = [seed] * len(datasets)
    return list(map(partial(perform_inference), datasets, seeds))  # expect


if __name__ == "__main__":
    datasets = [jnp.array([1.0, 2.0]), jnp.array([5.0, -1.0])]
    first, second = fit_all(datasets, seed=7)
    if bool(jnp.all(first == second)):
        print("HAZARD: both circuits' samplers used identical proposal noise")
        sys.exit(1)
    print("noise differs")
