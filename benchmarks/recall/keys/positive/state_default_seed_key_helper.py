# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/netket/netket/commit/e95477046f12d7a3064d9c72286ba1f5aec89483
# shown: the reference samples are drawn from the very key that initialised the weights: the first 1000 weights equal the reference samples exactly
# style: initializer statistics test; a helper turns a default int seed into a key on every call
import sys

import jax
import jax.numpy as jnp

DEFAULT_SEED = 0


def prng_key(seed=None):
    """Project helper: a key from an explicit seed or the project default."""
    return jax.random.key(DEFAULT_SEED if seed is None else seed)


def lecun_normal(key, shape):
    return jax.random.normal(key, shape) / jnp.sqrt(shape[0])


def check_initializer(n_in=4, n_out=2500, n_ref=1000):
    param = lecun_normal(prng_key(), (n_in, n_out))  # expect
    stddev = 1.0 / jnp.sqrt(n_in)
    samples = jax.random.normal(prng_key(), (n_ref,)) * stddev  # expect
    return param, samples


if __name__ == "__main__":
    param, samples = check_initializer()
    if bool(jnp.all(param[0, :1000] == samples)):
        print("HAZARD: reference samples are identical to the first row of weights; the statistical test compares a sample with itself")
        sys.exit(1)
    print("independent samples")
