# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/p-doom/jasmine/pull/214
# shown: KeyReuseError under jax_debug_key_reuse (uniform and normal drawn from one subkey)
# style: jitted dynamics-model forward pass that corrupts its inputs with noise
import sys

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)

MAX_NOISE_LEVEL = 0.7


def corrupt_latents(latents, rng):
    """Noise augmentation against exposure bias: per-clip level, per-token noise."""
    batch = latents.shape[0]
    rng, rng_noise = jax.random.split(rng)
    level = jax.random.uniform(rng_noise, (batch,), maxval=MAX_NOISE_LEVEL)  # expect
    noise = jax.random.normal(rng_noise, latents.shape)  # expect
    level = level[:, None, None]
    return jnp.sqrt(1.0 - level) * latents + jnp.sqrt(level) * noise, rng


@jax.jit
def dynamics_step(params, latents, rng):
    noisy, rng = corrupt_latents(latents, rng)
    return jnp.tanh(noisy @ params), rng


if __name__ == "__main__":
    params = jnp.eye(4)
    latents = jnp.ones((2, 3, 4))
    try:
        dynamics_step(params, latents, jax.random.key(0))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
