# recall-case: positive
# rule: OPT002
# source: https://github.com/google-deepmind/optax/issues/57
# source: https://github.com/google-deepmind/optax/commit/d56e6dd3c2c4c83c0bc06d7c4e12cb0a6f24e408
# shown: HAZARD: mask function called as a schedule at init: TypeError iteration over a 0-d array
# style: Haiku params, argparse namespace, optimizer parts assembled in a list, mask from hk.data_structures.map
import argparse

import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    return hk.nets.MLP([8, 1])(hk.LayerNorm(-1, True, True)(x))


def no_norm(module_name, name, value):
    return "layer_norm" not in module_name


def make_tx(args):
    txs = []
    if args.max_grad_norm:
        txs.append(optax.clip_by_global_norm(args.max_grad_norm))
    txs.append(optax.scale_by_adam())
    txs.append(
        optax.inject_hyperparams(optax.add_decayed_weights)(  # expect
            weight_decay=args.weight_decay,
            mask=lambda params: hk.data_structures.map(no_norm, params),
        )
    )
    txs.append(optax.scale(-args.lr))
    return optax.chain(*txs)


if __name__ == "__main__":
    args = argparse.Namespace(lr=0.1, weight_decay=0.1, max_grad_norm=1.0)
    net = hk.without_apply_rng(hk.transform(forward))
    params = net.init(jax.random.key(0), jnp.ones((2, 3)))
    params = jax.tree_util.tree_map(jnp.ones_like, params)
    tx = make_tx(args)
    try:
        state = tx.init(params)
    except TypeError as e:
        # inject_hyperparams called the mask function with the step count
        print("HAZARD: mask function called as a schedule at init:", type(e).__name__, e)
        raise SystemExit(1)
    print("initialised")
