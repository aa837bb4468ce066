# recall-case: negative
# rule: OPT020
# class: broadcast
# source: https://github.com/markean/aimz/issues/292
# shown: runs with jax_debug_key_reuse on; on 2 host devices each shard gets its own key from split and draws different noise; prints OK
# style: pmap predictive sampling with per-device keys
import os

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=2")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

jax.config.update("jax_debug_key_reuse", True)


def predictive_draw(w, x, rng_key):
    mean = x @ w
    return mean + jax.random.normal(rng_key, mean.shape)


if __name__ == "__main__":
    n = jax.local_device_count()
    w = jnp.stack([jnp.ones((3, 1))] * n)
    x = jnp.zeros((n, 5, 3))
    keys = jax.random.split(jax.random.key(0), n)
    draws = jax.pmap(predictive_draw)(w, x, keys)
    assert n == 1 or not bool(jnp.all(draws[0] == draws[1]))
    print("OK")
