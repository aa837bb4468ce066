# recall-case: negative
# rule: OPT018
# source: https://github.com/google-deepmind/optax/issues/1414
# shown: OK momentum 0.898 in bfloat16, params finite
# style: Haiku, bfloat16 params, injected sgd with momentum (no second-moment decay to round away)
import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    return hk.nets.MLP([16, 1])(x)


net = hk.without_apply_rng(hk.transform(forward))
tx = optax.inject_hyperparams(optax.sgd)(learning_rate=1e-2, momentum=0.9)


@jax.jit
def update(params, opt_state, x, y):
    grads = jax.grad(lambda p: jnp.mean((net.apply(p, x).astype(jnp.float32) - y) ** 2))(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


if __name__ == "__main__":
    x = jnp.ones((8, 3), jnp.bfloat16)
    y = jnp.ones((8, 1))
    params = jax.tree_util.tree_map(lambda p: p.astype(jnp.bfloat16), net.init(jax.random.key(0), x))
    opt_state = tx.init(params)
    for _ in range(3):
        params, opt_state = update(params, opt_state, x, y)
    assert all(not bool(jnp.isnan(p).any()) for p in jax.tree_util.tree_leaves(params))
    print(f"OK momentum {float(opt_state.hyperparams['momentum']):.3f} in bfloat16, params finite")
