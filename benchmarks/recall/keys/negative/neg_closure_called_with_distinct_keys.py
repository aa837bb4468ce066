# recall-case: negative
# rule: OPT020
# class: closure
# source: https://github.com/jax-ml/jax/pull/3646
# shown: runs with jax_debug_key_reuse on; the noise closure takes its key as an argument and each leaf gets its own key; prints OK
# style: DP-SGD noising with a nested helper called per gradient leaf
import jax
import jax.numpy as jnp
from jax import random

jax.config.update("jax_debug_key_reuse", True)


def add_noise(grads, rng, std_dev=1.1):
    def noise_(g, key):
        return g + std_dev * random.normal(key, g.shape)

    leaves, treedef = jax.tree_util.tree_flatten(grads)
    keys = random.split(rng, len(leaves))
    return jax.tree_util.tree_unflatten(treedef, [noise_(g, k) for g, k in zip(leaves, keys)])


if __name__ == "__main__":
    grads = {"w1": jnp.zeros(3), "w2": jnp.zeros(3)}
    noisy = add_noise(grads, random.key(0))
    assert not bool(jnp.all(noisy["w1"] == noisy["w2"]))
    print("OK")
