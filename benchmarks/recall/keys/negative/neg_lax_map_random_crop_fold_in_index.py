# recall-case: negative
# rule: OPT020
# class: broadcast
# source: https://github.com/tue-bmd/zea/pull/402
# shown: runs with jax_debug_key_reuse on; lax.map carries each image's batch index and folds it into the seed, so the crops land at different corners; prints OK
# style: data-augmentation layer mapping a random crop over the batch with jax.lax.map
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)

CROP = 8


def random_crop(image, key):
    h, w = image.shape
    top_key, left_key = jax.random.split(key)
    top = jax.random.randint(top_key, (), 0, h - CROP + 1)
    left = jax.random.randint(left_key, (), 0, w - CROP + 1)
    crop = jax.lax.dynamic_slice(image, (top, left), (CROP, CROP))
    return crop, jnp.stack([top, left])


class RandomCrop:
    def __call__(self, images, seed):
        indices = jnp.arange(images.shape[0], dtype=jnp.uint32)
        return jax.lax.map(
            lambda item: random_crop(item[0], jax.random.fold_in(seed, item[1])), (images, indices))


if __name__ == "__main__":
    images = jnp.arange(6 * 32 * 32, dtype=jnp.float32).reshape(6, 32, 32)
    crops, corners = RandomCrop()(images, jax.random.key(2024))
    assert len({tuple(c) for c in corners.tolist()}) > 1
    print("OK")
