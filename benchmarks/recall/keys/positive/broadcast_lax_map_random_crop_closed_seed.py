# recall-case: positive
# rule: OPT020
# class: broadcast
# source: https://github.com/tue-bmd/zea/pull/402
# shown: with "randomize location across batch" on, every image of the batch is cropped at the same location: lax.map's body closes over one seed
# style: data-augmentation layer mapping a random crop over the batch with jax.lax.map
import sys

import jax
import jax.numpy as jnp

CROP = 8


def random_crop(image, key):
    h, w = image.shape
    top_key, left_key = jax.random.split(key)
    top = jax.random.randint(top_key, (), 0, h - CROP + 1)
    left = jax.random.randint(left_key, (), 0, w - CROP + 1)
    crop = jax.lax.dynamic_slice(image, (top, left), (CROP, CROP))
    return crop, jnp.stack([top, left])


class RandomCrop:
    def __init__(self, randomize_location_across_batch=True):
        self.randomize_location_across_batch = randomize_location_across_batch

    def __call__(self, images, seed):
        if not self.randomize_location_across_batch:
            crop, corner = random_crop(images[0], seed)
            return jax.vmap(lambda img: jax.lax.dynamic_slice(img, tuple(corner), (CROP, CROP)))(images), \
                jnp.broadcast_to(corner, (images.shape[0], 2))
        return jax.lax.map(lambda img: random_crop(img, seed), images)  # expect


if __name__ == "__main__":
    images = jnp.arange(6 * 32 * 32, dtype=jnp.float32).reshape(6, 32, 32)
    crops, corners = RandomCrop()(images, jax.random.key(2024))
    print("crop corners", corners.tolist())
    if bool(jnp.all(corners == corners[0])):
        print("HAZARD: all", corners.shape[0], "images were cropped at the same corner", corners[0].tolist())
        sys.exit(1)
