# recall-case: negative
# rule: OPT017
# source: https://github.com/google-deepmind/optax/pull/883
# shown: OK update norm 10% of start
# style: Equinox, helper, chain(clip, adamw, reduce_on_plateau)
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def make_optimizer(lr=1e-3):
    return optax.chain(
        optax.clip_by_global_norm(1.0),
        optax.adamw(lr),
        optax.contrib.reduce_on_plateau(factor=0.1, patience=4, cooldown=10_000),
    )


if __name__ == "__main__":
    model = eqx.nn.Linear(3, 1, key=jax.random.key(0))
    params, static = eqx.partition(model, eqx.is_array)
    optim = make_optimizer()
    opt_state = optim.init(params)
    x = jnp.ones((4, 3))

    def body(carry, _):
        params, opt_state = carry
        grads = jax.grad(lambda p: jnp.sum(jax.vmap(eqx.combine(p, static))(x)))(params)
        updates, opt_state = optim.update(grads, opt_state, params, value=jnp.asarray(0.5))
        return (optax.apply_updates(params, updates), opt_state), optax.global_norm(updates)

    (params, opt_state), norms = jax.jit(lambda c: jax.lax.scan(body, c, None, length=200))((params, opt_state))
    ratio = float(norms[-1] / norms[0])
    assert ratio < 0.2
    print(f"OK update norm {ratio:.0%} of start")
