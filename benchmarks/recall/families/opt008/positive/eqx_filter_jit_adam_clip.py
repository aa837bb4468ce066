# recall-case: positive
# rule: OPT008
# source: https://github.com/sanchit-gandhi/seq2seq-speech/pull/7
# shown: max |ours - plain adam| = 0.00e+00; max |clip first - plain adam| = 1.21e-02; HAZARD: the clip after adam never fired
# style: Equinox MLP, filter_jit train step taking the optimizer as an argument, one outlier batch
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
    x = jnp.ones((4, 2))
    for t in (1.0, 500.0, 1.0, 1.0):
        model, state = train_step(model, state, x, jnp.full((4, 1), t), opt)
    return eqx.filter(model, eqx.is_array)


def max_diff(a, b):
    return max(float(jnp.abs(u - v).max()) for u, v in zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)))


if __name__ == "__main__":
    opt = optax.chain(optax.adam(1e-2), optax.clip_by_global_norm(1.0))  # expect
    ours = fit(opt)
    plain = fit(optax.adam(1e-2))
    first = fit(optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-2)))
    print(f"max |ours - plain adam| = {max_diff(ours, plain):.2e}; max |clip first - plain adam| = {max_diff(first, plain):.2e}")
    if max_diff(ours, plain) < 1e-6 < max_diff(first, plain):
        print("HAZARD: the clip after adam never fired; the spike went into Adam's moments unclipped")
