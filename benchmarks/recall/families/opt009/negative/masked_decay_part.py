# recall-case: negative
# rule: OPT009
# source: https://github.com/google-deepmind/optax/issues/159
# shown: masked used for one part (weight decay on matrices only); bias not decayed, kernel decayed (OK)
# style: masked(add_decayed_weights) inside a chain, helper-built, dict params
import jax
import jax.numpy as jnp
import optax


def build(lr, wd):
    decay_mask = lambda p: jax.tree_util.tree_map(lambda x: x.ndim > 1, p)
    return optax.chain(optax.scale_by_adam(), optax.masked(optax.add_decayed_weights(wd), decay_mask), optax.scale(-lr))


if __name__ == "__main__":
    params = {"kernel": jnp.ones((2, 2)), "bias": jnp.ones(2)}
    tx = build(0.1, 0.1)
    state = tx.init(params)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    for _ in range(5):
        u, state = tx.update(zeros, state, params)
        params = optax.apply_updates(params, u)
    print("kernel", float(params["kernel"][0, 0]), "bias", float(params["bias"][0]))
    assert float(params["bias"][0]) == 1.0 and float(params["kernel"][0, 0]) < 1.0
    print("OK")
