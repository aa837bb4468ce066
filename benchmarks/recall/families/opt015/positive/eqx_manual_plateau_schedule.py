# recall-case: positive
# rule: OPT015
# source: https://github.com/google-deepmind/optax/issues/206
# shown: HAZARD: halved lr 3 times on plateau but the state holds 9.65e-03 (schedule value)
# style: Equinox, filter_jit step, learning rate halved by hand on plateau inside a helper
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def make_optimizer(total_steps):
    sched = optax.cosine_decay_schedule(1e-2, total_steps)
    return optax.inject_hyperparams(optax.adamw)(learning_rate=sched, weight_decay=1e-4)


@eqx.filter_jit
def step(model, opt_state, optim, x, y):
    loss, grads = eqx.filter_value_and_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return loss, eqx.apply_updates(model, updates), opt_state


def reduce_lr(opt_state, factor=0.5):
    opt_state.hyperparams["learning_rate"] = opt_state.hyperparams["learning_rate"] * factor  # expect
    return opt_state


if __name__ == "__main__":
    model = eqx.nn.MLP(2, 1, 8, 1, key=jax.random.key(0))
    optim = make_optimizer(100)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    x = jnp.ones((4, 2))
    y = jnp.ones((4, 1))
    best, reductions = jnp.inf, 0
    for i in range(12):
        loss, model, opt_state = step(model, opt_state, optim, x, y)
        if i % 4 == 3:  # pretend the validation loss plateaued
            opt_state = reduce_lr(opt_state)
            reductions += 1
    loss, model, opt_state = step(model, opt_state, optim, x, y)
    lr = float(opt_state.hyperparams["learning_rate"])
    print(f"HAZARD: halved lr {reductions} times on plateau but the state holds {lr:.2e} (schedule value)"
          if lr > 1e-2 * 0.5 ** reductions else "OK")
