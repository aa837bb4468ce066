# recall-case: positive
# rule: OPT020
# class: other-library
# source: https://github.com/pyro-ppl/numpyro/commit/060857b38ecc2e5b6148e1b445cc535d14ee2c0b
# shown: KeyReuseError under jax_debug_key_reuse: the key that binarised the image also seeds distrax sample(seed=)
# style: VAE reconstruction helper; numpyro's Normal(...).sample(rng) rebuilt with distrax
import sys

import distrax
import jax
import jax.numpy as jnp
from jax import random

jax.config.update("jax_debug_key_reuse", True)


def binarize(rng, batch):
    return random.bernoulli(rng, batch).astype(batch.dtype)


def encode(params, x):
    h = x @ params["enc"]
    return h, jnp.exp(0.5 * h)


def decode(params, z):
    return jax.nn.sigmoid(z @ params["dec"])


def reconstruct_img(params, img, rng):
    test_sample = binarize(rng, img)  # expect
    z_mean, z_scale = encode(params, test_sample.reshape(1, -1))
    z = distrax.Normal(z_mean, z_scale).sample(seed=rng)  # expect
    return decode(params, z).reshape(img.shape)


if __name__ == "__main__":
    params = {"enc": jnp.full((16, 2), 0.1), "dec": jnp.full((2, 16), 0.1)}
    img = jnp.full((4, 4), 0.5)
    try:
        reconstruct_img(params, img, random.key(3))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
