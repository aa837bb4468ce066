# recall-case: positive
# rule: OPT017
# source: https://github.com/google-deepmind/optax/pull/877
# source: https://github.com/google-deepmind/optax/pull/883
# shown: HAZARD: scale 0.1, yet the update norm is 100% of plain rmsprop's after 200 steps
# style: Equinox, optimizer from a helper, eqx.filter_jit step, plateau fed with a validation loss
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def make_optimizer(lr=1e-3):
    return optax.chain(  # expect
        optax.contrib.reduce_on_plateau(factor=0.1, patience=4, cooldown=10_000),
        optax.rmsprop(lr),
    )


@eqx.filter_jit
def multi_step(model, opt_state, optim, x, val_loss):
    params, static = eqx.partition(model, eqx.is_array)

    def body(carry, _):
        params, opt_state = carry
        grads = jax.grad(lambda p: jnp.sum(jax.vmap(eqx.combine(p, static))(x)))(params)
        updates, opt_state = optim.update(grads, opt_state, params, value=val_loss)
        return (optax.apply_updates(params, updates), opt_state), optax.global_norm(updates)

    (params, opt_state), norms = jax.lax.scan(body, (params, opt_state), None, length=200)
    return eqx.combine(params, static), opt_state, norms


if __name__ == "__main__":
    model = eqx.nn.Linear(3, 1, key=jax.random.key(0))
    optim = make_optimizer()
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    x = jnp.ones((4, 3))
    _, opt_state, norms = multi_step(model, opt_state, optim, x, jnp.asarray(0.5))
    plain = optax.rmsprop(1e-3)  # the same optimizer without the plateau, for reference
    _, _, ref = multi_step(model, plain.init(eqx.filter(model, eqx.is_array)), plain, x, jnp.asarray(0.5))
    scale = float(optax.tree.get(opt_state, "scale"))
    ratio = float(norms[-1] / ref[-1])
    print(f"HAZARD: scale {scale:.1f}, yet the update norm is {ratio:.0%} of plain rmsprop's after 200 steps"
          if ratio > 2 * scale else "OK")
