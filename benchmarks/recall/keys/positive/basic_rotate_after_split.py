# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/AakashKumarNain/TF_JAX_tutorials/issues/4
# shown: KeyReuseError under jax_debug_key_reuse: randint draws from the key that is split again on the next batch
# style: data-augmentation helper threading a key through batches
import sys

import jax
import jax.numpy as jnp
from jax import random

jax.config.update("jax_debug_key_reuse", True)


def random_rotate(images, key):
    """Rotate a random half of the batch by 90 degrees."""
    key, subkey = random.split(key)  # expect
    rotate = random.randint(key, shape=[images.shape[0]], minval=0, maxval=2)  # expect
    rotated = jnp.rot90(images, axes=(1, 2))
    return jnp.where(rotate[:, None, None] == 1, rotated, images), key


def augment_epoch(batches, key):
    out = []
    for images in batches:
        images, key = random_rotate(images, key)
        out.append(images)
    return out


if __name__ == "__main__":
    batches = [jnp.arange(2 * 3 * 3.0).reshape(2, 3, 3) for _ in range(3)]
    try:
        augment_epoch(batches, random.key(0))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
