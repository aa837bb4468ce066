# recall-case: positive
# rule: OPT020
# class: project-consumer
# source: https://github.com/jax-ml/jax/pull/181
# shown: KeyReuseError under jax_debug_key_reuse: the jitted update samples with rng, then rng is split
# style: black-box variational inference loop, jitted project update function
import sys

import jax
import jax.numpy as jnp
from jax import random

jax.config.update("jax_debug_key_reuse", True)


def log_density(z):
    return -0.5 * jnp.sum((z - 2.0) ** 2, axis=-1)


def elbo(params, rng, num_samples=8):
    mean, log_std = params
    eps = random.normal(rng, (num_samples, mean.shape[0]))
    z = mean + jnp.exp(log_std) * eps
    return jnp.mean(log_density(z)) + jnp.sum(log_std)


@jax.jit
def update(step, params, rng):
    grads = jax.grad(elbo)(params, rng)
    return jax.tree_util.tree_map(lambda p, g: p + 0.05 * g, params, grads)


def train(num_steps, rng):
    params = (jnp.zeros(2), jnp.zeros(2))
    for t in range(num_steps):
        params = update(t, params, rng)  # expect
        old, rng = random.split(rng)  # expect
    return params


if __name__ == "__main__":
    try:
        print(train(3, random.key(0)))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
