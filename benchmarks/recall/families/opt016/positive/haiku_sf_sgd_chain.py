# recall-case: positive
# rule: OPT016
# source: https://github.com/facebookresearch/schedule_free/issues/15
# shown: AttributeError: 'tuple' object has no attribute 'b1'
# style: Haiku, schedule-free SGD followed by a transformation in the chain, jitted eval
import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    return hk.Linear(1)(jax.nn.relu(hk.Linear(8)(x)))


net = hk.without_apply_rng(hk.transform(forward))
optimizer = optax.chain(
    optax.contrib.schedule_free_sgd(0.05, warmup_steps=3),
    optax.clip(0.5),
)


@jax.jit
def update(params, opt_state, x, y):
    grads = jax.grad(lambda p: jnp.mean((net.apply(p, x) - y) ** 2))(params)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


@jax.jit
def evaluate(params, opt_state, x, y):
    eval_params = optax.contrib.schedule_free_eval_params(opt_state, params)  # expect
    return jnp.mean((net.apply(eval_params, x) - y) ** 2)


if __name__ == "__main__":
    x = jnp.ones((8, 2))
    y = jnp.ones((8, 1))
    params = net.init(jax.random.key(0), x)
    opt_state = optimizer.init(params)
    for _ in range(5):
        params, opt_state = update(params, opt_state, x, y)
    print("HAZARD: no error (not expected)", evaluate(params, opt_state, x, y))
