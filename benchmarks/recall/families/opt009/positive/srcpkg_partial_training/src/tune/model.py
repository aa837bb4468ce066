import jax
import jax.numpy as jnp


def init_params(key):
    k1, k2 = jax.random.split(key)
    return {"encoder": {"w": jax.random.normal(k1, (3, 4))}, "head": {"w": jax.random.normal(k2, (4, 1))}}


def apply(params, x):
    return jnp.tanh(x @ params["encoder"]["w"]) @ params["head"]["w"]
