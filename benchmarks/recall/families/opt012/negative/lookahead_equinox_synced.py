# recall-case: negative
# rule: OPT012
# source: https://github.com/google-deepmind/optax/issues/1429
# shown: runs; prints OK
# style: Equinox MLP, LookaheadParams over the filtered arrays, combine for the forward pass
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def build_model(key):
    return eqx.nn.MLP(in_size=2, out_size=1, width_size=8, depth=2, key=key)


def compute_loss(params, static, x, y):
    model = eqx.combine(params, static)
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


if __name__ == "__main__":
    model = build_model(jax.random.key(0))
    params, static = eqx.partition(model, eqx.is_array)
    optim = optax.lookahead(optax.adamw(1e-2), sync_period=5, slow_step_size=0.5)
    lp = optax.LookaheadParams.init_synced(params)
    opt_state = optim.init(lp)
    x = jnp.ones((16, 2))
    y = jnp.zeros((16, 1))

    @jax.jit
    def step(lp, opt_state):
        grads = jax.grad(compute_loss)(lp.fast, static, x, y)
        updates, opt_state = optim.update(grads, opt_state, lp)
        return optax.apply_updates(lp, updates), opt_state

    for _ in range(10):
        lp, opt_state = step(lp, opt_state)
    print("OK", float(compute_loss(lp.slow, static, x, y)))
