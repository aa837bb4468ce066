# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/jax-ml/jax/issues/14597
# source: https://github.com/jax-ml/jax/commit/fbbdc35d5eb1925dc8188ada2b6d2b61f9fde28a
# shown: KeyReuseError under jax_debug_key_reuse: the gamma draw takes the subkey the normal draw already consumed (the second subkey is never used)
# style: hand-written heavy-tailed noise sampler for a robust-regression toy dataset
import sys

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def student_t_noise(key, dof, shape):
    """Student-t noise as normal / sqrt(gamma / (dof / 2))."""
    normal_key, gamma_key = jax.random.split(key)
    z = jax.random.normal(normal_key, shape)  # expect
    half_dof = dof / 2.0
    g = jax.random.gamma(normal_key, half_dof, shape)  # expect
    return z * jnp.sqrt(half_dof / g)


def make_dataset(key, n=64):
    x_key, noise_key = jax.random.split(key)
    x = jax.random.uniform(x_key, (n,), minval=-2.0, maxval=2.0)
    y = 1.5 * x - 0.3 + 0.2 * student_t_noise(noise_key, 3.0, (n,))
    return x, y


if __name__ == "__main__":
    try:
        x, y = make_dataset(jax.random.key(0))
        print("dataset", x.shape, y.shape)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
