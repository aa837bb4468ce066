# recall-case: negative
# rule: OPT020
# class: basic
# source: https://github.com/p-doom/jasmine/pull/214
# shown: the first draw is overwritten before any use, so the result equals a program without it; prints OK (checker not applicable: it flags the dead draw)
# style: augmentation function where a config switch replaces the mask before it is read
import jax
import jax.numpy as jnp

USE_TOKEN_DROPOUT = False


def corrupt(tokens, key, rate=0.1):
    mask = jax.random.bernoulli(key, 1.0 - rate, tokens.shape)
    if not USE_TOKEN_DROPOUT:
        mask = jnp.ones(tokens.shape, dtype=bool)
    noise = jax.random.normal(key, tokens.shape)
    return jnp.where(mask, tokens + 0.1 * noise, 0.0)


def corrupt_without_dead_draw(tokens, key):
    noise = jax.random.normal(key, tokens.shape)
    return tokens + 0.1 * noise


if __name__ == "__main__":
    tokens = jnp.ones((2, 5))
    key = jax.random.key(0)
    assert bool(jnp.all(corrupt(tokens, key) == corrupt_without_dead_draw(tokens, key)))
    print("OK")
