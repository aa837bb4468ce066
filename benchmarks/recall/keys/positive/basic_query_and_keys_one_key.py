# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/google/flax/commit/a307d4737cbccb87809b620e2d5d4c06ad1d904e
# shown: the 3x5 query equals the first 3 rows of the 9x5 key/value input (prefix-identical); KeyReuseError with the checker on
# style: attention test fixture, plain jax.random
import sys

import jax
import jax.numpy as jnp
from jax import random


def attention(query, key_value):
    scores = query @ key_value.T / jnp.sqrt(query.shape[-1])
    return jax.nn.softmax(scores, axis=-1) @ key_value


def make_inputs(seed):
    key1, key2 = random.split(random.key(seed), 2)
    query = random.uniform(key1, (3, 5))  # expect
    key_value = random.uniform(key1, (9, 5))  # expect
    return query, key_value


if __name__ == "__main__":
    query, key_value = make_inputs(0)
    out = attention(query, key_value)
    if bool(jnp.all(query == key_value[:3])):
        print("HAZARD: query rows are identical to key_value[:3]; attention output", out.shape)
    jax.config.update("jax_debug_key_reuse", True)
    try:
        make_inputs(0)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
