# recall-case: negative
# rule: OPT020
# class: fold-in-split
# source: https://github.com/jax-ml/jax/issues/7708
# shown: per-example split and per-step fold_in start from different subkeys, so no draw coincides; prints OK
# style: vmapped per-example noise plus per-step augmentation noise
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def batch_step(key, xs, step):
    example_root, augment_root = jax.random.split(key)
    example_keys = jax.random.split(example_root, xs.shape[0])
    dropout_noise = jax.vmap(lambda k: jax.random.normal(k, xs.shape[1:]))(example_keys)
    augment_noise = jax.random.normal(jax.random.fold_in(augment_root, step), xs.shape[1:])
    return dropout_noise, augment_noise


if __name__ == "__main__":
    dropout_noise, augment_noise = batch_step(jax.random.key(0), jnp.zeros((4, 3)), step=1)
    assert not any(bool(jnp.all(row == augment_noise)) for row in dropout_noise)
    print("OK")
