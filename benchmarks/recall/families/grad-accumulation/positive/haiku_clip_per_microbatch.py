# recall-case: positive
# rule: grad-accumulation
# source: https://github.com/jenkspt/gpt-jax/issues/2
# shown: HAZARD: accumulated params differ from the full-batch step by 1.6e-03 (MultiSteps: 2.9e-11)
# style: Haiku, nanoGPT-style "clip then step" with apply_every appended, helper called for two runs
import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    return hk.Linear(1)(jax.nn.relu(hk.Linear(8)(x)))


net = hk.without_apply_rng(hk.transform(forward))


def loss_fn(params, x, y):
    return jnp.mean((net.apply(params, x) - y) ** 2)


def make_optimizer(accum):
    base = [optax.clip_by_global_norm(0.2), optax.sgd(1e-2)]
    if accum > 1:
        return optax.chain(*base, optax.apply_every(accum))  # expect
    return optax.chain(*base)


def fit(optimizer, params, batches):
    state = optimizer.init(params)
    for x, y in batches:
        grads = jax.grad(loss_fn)(params, x, y)
        updates, state = optimizer.update(grads, state, params)
        params = optax.apply_updates(params, updates)
    return params


def max_diff(a, b):
    return max(float(jnp.abs(u - v).max()) for u, v in zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)))


if __name__ == "__main__":
    x = jax.random.normal(jax.random.key(0), (9, 4)) * 5
    y = jnp.ones((9, 1)) * 10
    params = net.init(jax.random.key(1), x)
    full = fit(make_optimizer(1), params, [(x, y)])
    micro = [(x[i:i + 3], y[i:i + 3]) for i in range(0, 9, 3)]
    acc = fit(make_optimizer(3), params, micro)
    ref = fit(optax.MultiSteps(make_optimizer(1), every_k_schedule=3), params, micro)
    d, d_ref = max_diff(full, acc), max_diff(full, ref)
    print(f"HAZARD: accumulated params differ from the full-batch step by {d:.1e} (MultiSteps: {d_ref:.1e})"
          if d > 10 * d_ref + 1e-6 else "OK")
