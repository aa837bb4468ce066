# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/pyro-ppl/numpyro/commit/060857b38ecc2e5b6148e1b445cc535d14ee2c0b
# shown: KeyReuseError under jax_debug_key_reuse: binarize returns the key it just drew from, and the SVI step draws from it again
# style: VAE training epoch written as a fori_loop body; helper returns (rng, batch)
import sys

import jax
import jax.numpy as jnp
from jax import random

jax.config.update("jax_debug_key_reuse", True)


def binarize(rng, batch):
    (rng,) = random.split(rng, 1)
    return rng, random.bernoulli(rng, batch).astype(batch.dtype)  # expect


def svi_update(step, rng, params, batch):
    eps = random.normal(rng, params.shape)
    grad = jnp.mean(batch) * (params + 0.01 * eps)
    return params - 0.1 * grad, random.split(rng, 1)[0]


def epoch_train(params, rng, data):
    def body_fn(i, val):
        params, rng = val
        rng, batch = binarize(rng, data[i])
        params, rng = svi_update(i, rng, params, batch)  # expect
        return params, rng

    return jax.lax.fori_loop(0, data.shape[0], body_fn, (params, rng))


if __name__ == "__main__":
    data = jnp.full((3, 4), 0.5)
    try:
        epoch_train(jnp.ones(4), random.key(0), data)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
