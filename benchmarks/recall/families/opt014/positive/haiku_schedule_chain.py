# recall-case: positive
# rule: OPT014
# source: https://github.com/google-deepmind/optax/issues/364
# source: https://github.com/google-deepmind/optax/issues/494
# shown: HAZARD: weight norm of the Haiku MLP x1.22 after 20 steps on already-fit data
# style: Haiku, warmup-cosine schedule, scale_by_learning_rate before add_decayed_weights, jitted update
import haiku as hk
import jax
import jax.numpy as jnp
import optax


def net_fn(x):
    return hk.nets.MLP([16, 1])(x)


net = hk.without_apply_rng(hk.transform(net_fn))


def make_optimizer(total_steps, peak_lr=1e-3, wd=1e-2):
    schedule = optax.warmup_cosine_decay_schedule(0.0, peak_lr, 5, total_steps)
    return optax.chain(  # expect
        optax.clip_by_global_norm(1.0),
        optax.scale_by_adam(b1=0.9, b2=0.95),
        optax.scale_by_learning_rate(schedule),
        optax.add_decayed_weights(wd),
    )


@jax.jit
def update(params, opt_state, x, y):
    grads = jax.grad(lambda p: jnp.mean((net.apply(p, x) - y) ** 2))(params)
    updates, opt_state = opt.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state


opt = make_optimizer(total_steps=20)

if __name__ == "__main__":
    x = jnp.zeros((8, 3))
    params = net.init(jax.random.key(0), x)
    y = net.apply(params, x)  # targets equal the current output: nothing left to learn
    opt_state = opt.init(params)
    n0 = optax.global_norm(params)
    for _ in range(20):
        params, opt_state = update(params, opt_state, x, y)
    r = float(optax.global_norm(params) / n0)
    print(f"HAZARD: weight norm of the Haiku MLP x{r:.2f} after 20 steps on already-fit data" if r > 1 else "OK")
