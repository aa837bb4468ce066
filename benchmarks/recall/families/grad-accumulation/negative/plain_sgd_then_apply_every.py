# recall-case: negative
# rule: grad-accumulation
# source: https://github.com/jenkspt/gpt-jax/issues/2
# shown: OK plain sgd summed over 3 micro-batches equals MultiSteps (max diff 1e-09)
# style: Haiku, stateless linear optimizer (plain sgd, lr/k) followed by apply_every: exact accumulation
import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    return hk.Linear(1)(jax.nn.relu(hk.Linear(8)(x)))


net = hk.without_apply_rng(hk.transform(forward))
K = 3


def fit(optimizer, params, batches):
    state = optimizer.init(params)
    for x, y in batches:
        grads = jax.grad(lambda p: jnp.mean((net.apply(p, x) - y) ** 2))(params)
        updates, state = optimizer.update(grads, state, params)
        params = optax.apply_updates(params, updates)
    return params


if __name__ == "__main__":
    x = jax.random.normal(jax.random.key(0), (9, 4))
    y = jnp.ones((9, 1))
    params = net.init(jax.random.key(1), x)
    micro = [(x[i:i + 3], y[i:i + 3]) for i in range(0, 9, 3)]
    acc = fit(optax.chain(optax.sgd(1e-2 / K), optax.apply_every(K)), params, micro)
    ref = fit(optax.MultiSteps(optax.sgd(1e-2), every_k_schedule=K), params, micro)
    d = max(float(jnp.abs(a - b).max()) for a, b in zip(jax.tree_util.tree_leaves(acc), jax.tree_util.tree_leaves(ref)))
    assert d < 1e-6
    print(f"OK plain sgd summed over {K} micro-batches equals MultiSteps (max diff {d:.0e})")
