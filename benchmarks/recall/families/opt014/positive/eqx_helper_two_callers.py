# recall-case: positive
# rule: OPT014
# source: https://github.com/google-deepmind/optax/issues/364
# source: https://github.com/google-deepmind/optax/issues/392
# shown: HAZARD: finetune stage: weights x1.49 in 40 steps with zero loss gradient
# style: Equinox, optimizer helper called from two training stages, add_decayed_weights after adabelief
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def make_optimizer(lr, weight_decay=0.0):
    tx = optax.adabelief(lr)
    if weight_decay:
        tx = optax.chain(tx, optax.add_decayed_weights(weight_decay))  # expect
    return tx


def run_stage(model, optim, x, y, steps):
    params = eqx.filter(model, eqx.is_array)
    opt_state = optim.init(params)

    @eqx.filter_jit
    def step(model, opt_state):
        grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
        updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
        return eqx.apply_updates(model, updates), opt_state

    for _ in range(steps):
        model, opt_state = step(model, opt_state)
    return model


if __name__ == "__main__":
    model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.key(0))
    x = jnp.zeros((8, 2))
    model = run_stage(model, make_optimizer(1e-3), x, jnp.ones((8, 1)), 10)
    y_fit = jax.vmap(model)(x)
    n0 = optax.global_norm(eqx.filter(model, eqx.is_array))
    model = run_stage(model, make_optimizer(1e-4, weight_decay=0.01), x, y_fit, 40)
    r = float(optax.global_norm(eqx.filter(model, eqx.is_array)) / n0)
    print(f"HAZARD: finetune stage: weights x{r:.2f} in 40 steps with zero loss gradient" if r > 1 else "OK")
