# recall-case: negative
# rule: OPT008
# source: https://github.com/sanchit-gandhi/seq2seq-speech/pull/7
# shown: chain(clip, adam): the outlier batch is clipped, model differs from plain adam by ~1e-2 (OK)
# style: Equinox, filter_jit step, optimizer passed in
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


@eqx.filter_jit
def train_step(model, opt_state, x, y, opt):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    updates, opt_state = opt.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state


def fit(opt):
    model = eqx.nn.MLP(2, 1, 8, 1, key=jax.random.key(0))
    state = opt.init(eqx.filter(model, eqx.is_array))
    for t in (1.0, 500.0, 1.0, 1.0):
        model, state = train_step(model, state, jnp.ones((4, 2)), jnp.full((4, 1), t), opt)
    return eqx.filter(model, eqx.is_array)


if __name__ == "__main__":
    a = fit(optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-2)))
    b = fit(optax.adam(1e-2))
    d = max(float(jnp.abs(u - v).max()) for u, v in zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)))
    print(f"max |clip first - plain adam| = {d:.2e}")
    assert d > 1e-4
    print("OK")
