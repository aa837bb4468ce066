# recall-case: negative
# rule: OPT020
# class: other-library
# source: https://github.com/pyro-ppl/numpyro/commit/060857b38ecc2e5b6148e1b445cc535d14ee2c0b
# shown: runs with jax_debug_key_reuse on; binarisation and the distrax sample get separate keys from split; prints OK
# style: VAE reconstruction helper with distrax
import distrax
import jax
import jax.numpy as jnp
from jax import random

jax.config.update("jax_debug_key_reuse", True)


def reconstruct(enc, dec, img, rng):
    rng_binarize, rng_sample = random.split(rng)
    sample = random.bernoulli(rng_binarize, img).astype(img.dtype)
    h = sample.reshape(1, -1) @ enc
    z = distrax.Normal(h, jnp.exp(0.5 * h)).sample(seed=rng_sample)
    return jax.nn.sigmoid(z @ dec).reshape(img.shape)


if __name__ == "__main__":
    out = reconstruct(jnp.full((16, 2), 0.1), jnp.full((2, 16), 0.1), jnp.full((4, 4), 0.5), random.key(3))
    assert out.shape == (4, 4)
    print("OK")
