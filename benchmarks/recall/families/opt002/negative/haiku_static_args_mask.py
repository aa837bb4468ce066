# recall-case: negative
# rule: OPT002
# source: https://github.com/google-deepmind/optax/commit/d56e6dd3c2c4c83c0bc06d7c4e12cb0a6f24e408
# shown: linear_0 w 0.9044 after 10 zero-gradient steps, layer norm scale 1.0000 (OK)
# style: Haiku, inject_hyperparams(add_decayed_weights, static_args="mask") with a mask function, chain
import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    return hk.nets.MLP([8, 1])(hk.LayerNorm(-1, True, True)(x))


def not_norm(module_name, name, value):
    return "layer_norm" not in module_name


def make_tx(lr, wd):
    return optax.chain(
        optax.scale_by_adam(),
        optax.inject_hyperparams(optax.add_decayed_weights, static_args="mask")(
            weight_decay=wd, mask=lambda p: hk.data_structures.map(not_norm, p)
        ),
        optax.scale(-lr),
    )


if __name__ == "__main__":
    net = hk.without_apply_rng(hk.transform(forward))
    params = jax.tree_util.tree_map(jnp.ones_like, net.init(jax.random.key(0), jnp.ones((2, 3))))
    tx = make_tx(0.1, 0.1)
    state = tx.init(params)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    p = params
    for _ in range(10):
        updates, state = tx.update(zeros, state, p)
        p = optax.apply_updates(p, updates)
    w = float(p["mlp/~/linear_0"]["w"][0, 0])
    s = float(p["layer_norm"]["scale"][0])
    print(f"linear_0 w {w:.4f}, layer norm scale {s:.4f}")
    assert w < 0.95 and s == 1.0
    print("OK")
