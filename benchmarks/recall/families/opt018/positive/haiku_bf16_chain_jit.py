# recall-case: positive
# rule: OPT018
# source: https://github.com/google-deepmind/optax/issues/1414
# source: https://github.com/google-deepmind/optax/issues/1532
# shown: HAZARD: loss nan after 3 jitted steps (bfloat16 Haiku params)
# style: Haiku, params cast to bfloat16, clip + injected adamw in a chain, jitted update
import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    return hk.nets.MLP([16, 1])(x)


net = hk.without_apply_rng(hk.transform(forward))


def make_tx(lr):
    return optax.chain(
        optax.clip_by_global_norm(1.0),
        optax.inject_hyperparams(optax.adamw)(learning_rate=lr, b1=0.9, b2=0.999),  # expect
    )


tx = make_tx(optax.constant_schedule(1e-3))


def loss_fn(params, x, y):
    return jnp.mean((net.apply(params, x).astype(jnp.float32) - y) ** 2)


@jax.jit
def update(params, opt_state, x, y):
    grads = jax.grad(loss_fn)(params, x, y)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


if __name__ == "__main__":
    x = jnp.ones((8, 3), jnp.bfloat16)
    y = jnp.ones((8, 1))
    params = jax.tree_util.tree_map(lambda p: p.astype(jnp.bfloat16), net.init(jax.random.key(0), x))
    opt_state = tx.init(params)
    for _ in range(3):
        params, opt_state = update(params, opt_state, x, y)
    loss = float(loss_fn(params, x, y))
    print(f"HAZARD: loss {loss} after 3 jitted steps (bfloat16 Haiku params)" if loss != loss else "OK")
