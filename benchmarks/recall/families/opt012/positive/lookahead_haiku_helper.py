# recall-case: positive
# rule: OPT012
# source: https://github.com/google-deepmind/optax/issues/1429
# shown: AttributeError: 'dict' object has no attribute 'fast'
# style: Haiku transformed MLP, helper `make_update` called from two places
import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    return hk.nets.MLP([8, 1])(x)


net = hk.without_apply_rng(hk.transform(forward))


def loss_fn(params, x, y):
    return jnp.mean((net.apply(params, x) - y) ** 2)


def make_update(optimizer):
    @jax.jit
    def update(params, opt_state, x, y):
        grads = jax.grad(loss_fn)(params, x, y)
        updates, opt_state = optimizer.update(grads, opt_state, params)  # expect
        return optax.apply_updates(params, updates), opt_state

    return update


def pretrain(params, x, y):
    opt = optax.adam(1e-3)
    update = make_update(opt)
    state = opt.init(params)
    for _ in range(3):
        params, state = update(params, state, x, y)
    return params


def finetune(params, x, y):
    opt = optax.lookahead(optax.adam(1e-3), sync_period=5, slow_step_size=0.5)
    update = make_update(opt)
    state = opt.init(params)
    for _ in range(10):
        params, state = update(params, state, x, y)
    return params


if __name__ == "__main__":
    x = jnp.ones((4, 2))
    y = jnp.ones((4, 1))
    params = net.init(jax.random.key(0), x)
    params = pretrain(params, x, y)
    params = finetune(params, x, y)
    print("HAZARD: no error (not expected)")
