# recall-case: positive
# rule: OPT020
# class: closure
# source: https://github.com/jax-ml/jax/pull/3646
# shown: KeyReuseError under jax_debug_key_reuse; without it, two same-shaped gradient leaves receive identical Gaussian noise
# style: differentially private SGD step: clip per example, then noise each gradient leaf through a closure
import sys

import jax
import jax.numpy as jnp
from jax import random


def loss(params, x, y):
    return jnp.mean((x @ params["w1"] + x @ params["w2"] - y) ** 2)


def private_grad(params, batch, rng, l2_norm_clip=1.0, noise_multiplier=1.1):
    x, y = batch
    per_example = jax.vmap(jax.grad(loss), in_axes=(None, 0, 0))(params, x[:, None], y[:, None])

    def clip(g):
        norm = jnp.sqrt(sum(jnp.sum(leaf ** 2) for leaf in jax.tree_util.tree_leaves(g)))
        return jax.tree_util.tree_map(lambda leaf: leaf / jnp.maximum(1.0, norm / l2_norm_clip), g)

    clipped = jax.vmap(clip)(per_example)
    summed = jax.tree_util.tree_map(lambda g: g.sum(0), clipped)
    std_dev = l2_norm_clip * noise_multiplier
    noise_ = lambda n: n + std_dev * random.normal(rng, n.shape)  # expect
    return jax.tree_util.tree_map(noise_, summed)  # expect


if __name__ == "__main__":
    params = {"w1": jnp.zeros((3, 1)), "w2": jnp.zeros((3, 1))}
    batch = (jnp.ones((4, 3)), jnp.ones((4, 1)))
    grads = private_grad(params, batch, random.key(0))
    noise_equal = bool(jnp.all(grads["w1"] == grads["w2"]))
    if noise_equal:
        print("HAZARD: gradient leaves w1 and w2 got identical noise:", grads["w1"].ravel())
    jax.config.update("jax_debug_key_reuse", True)
    try:
        private_grad(params, batch, random.key(0))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
