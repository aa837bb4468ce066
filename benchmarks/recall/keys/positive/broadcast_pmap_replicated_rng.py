# recall-case: positive
# rule: OPT020
# class: broadcast
# source: https://github.com/markean/aimz/issues/292
# shown: with the rng replicated across 2 host devices, both shards draw identical per-observation noise
# style: pmap data-parallel predictive sampling; the key is replicated like the parameters
import os
import sys

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=2")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402


def replicate(tree, n):
    return jax.tree_util.tree_map(lambda x: jnp.stack([x] * n), tree)


def predictive_draw(params, x, rng_key):
    mean = x @ params["w"]
    return mean + params["noise"] * jax.random.normal(rng_key, mean.shape)


sharded_draw = jax.pmap(predictive_draw, axis_name="obs")


def sample_posterior_predictive(params, x_shards, rng_key):
    n = jax.local_device_count()
    return sharded_draw(replicate(params, n), x_shards, replicate(rng_key, n))  # expect


if __name__ == "__main__":
    n = jax.local_device_count()
    params = {"w": jnp.ones((3, 1)), "noise": jnp.float32(1.0)}
    x_shards = jnp.zeros((n, 5, 3))
    draws = sample_posterior_predictive(params, x_shards, jax.random.PRNGKey(0))
    if n > 1 and bool(jnp.all(draws[0] == draws[1])):
        print(f"HAZARD: {n} device shards drew identical noise from the replicated key")
        sys.exit(1)
    print("shards differ" if n > 1 else "only one device")
