# recall-case: positive
# rule: OPT020
# class: fold-in-split
# source: https://github.com/jax-ml/jax/issues/7708
# source: https://github.com/jax-ml/jax/pull/13341
# shown: fold_in(key, 1) equals split(key, batch)[1]: step 1's augmentation noise equals example 1's dropout noise (identical values)
# style: vmapped per-example loss with split keys plus a per-step fold_in for augmentation
import sys

import jax
import jax.numpy as jnp


def example_noise(key, x):
    return jax.random.normal(key, x.shape)


def batch_step(key, xs, step):
    example_keys = jax.random.split(key, xs.shape[0])  # expect
    dropout_noise = jax.vmap(example_noise)(example_keys, xs)
    augment_key = jax.random.fold_in(key, step)  # expect
    augment_noise = jax.random.normal(augment_key, xs.shape[1:])
    return dropout_noise, augment_noise


if __name__ == "__main__":
    xs = jnp.zeros((4, 3))
    dropout_noise, augment_noise = batch_step(jax.random.key(0), xs, step=1)
    if bool(jnp.all(dropout_noise[1] == augment_noise)):
        print("HAZARD: augmentation noise at step 1 is identical to example 1's dropout noise")
        sys.exit(1)
    print("independent")
