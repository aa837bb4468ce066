# recall-case: positive
# rule: grad-accumulation
# source: https://github.com/borisdayma/dalle-mini/pull/122
# shown: HAZARD: with accumulation every 4, the model still moved on 9 of 9 in-between micro-steps (momentum on zero grads)
# style: Equinox, optimizer from a helper, apply_every before sgd with momentum, filter_jit step
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def make_optimizer(lr=1e-2, momentum=0.9, accumulate=4):
    return optax.chain(optax.apply_every(accumulate), optax.sgd(lr, momentum=momentum))  # expect


@eqx.filter_jit
def micro_step(model, opt_state, optim, x, y):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state


if __name__ == "__main__":
    model = eqx.nn.MLP(3, 1, 8, 1, key=jax.random.key(0))
    optim = make_optimizer()
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    xs = jax.random.normal(jax.random.key(1), (16, 8, 3))
    ys = xs[..., :1] ** 2
    moved_between = 0
    n_between = 0
    for i in range(16):
        new_model, opt_state = micro_step(model, opt_state, optim, xs[i], ys[i])
        changed = bool(jnp.any(new_model.layers[0].weight != model.layers[0].weight))
        if i >= 4 and (i + 1) % 4:  # after the first boundary, not itself a boundary
            n_between += 1
            moved_between += changed
        model = new_model
    print(f"HAZARD: with accumulation every 4, the model still moved on {moved_between} of {n_between} in-between micro-steps "
          "(momentum on zero grads)" if moved_between else "OK")
