# recall-case: positive
# rule: OPT012
# source: https://github.com/google-deepmind/optax/issues/1429
# source: https://github.com/google-deepmind/optax/issues/263
# shown: AttributeError: ... has no attribute 'fast' (filtered Equinox params given as params)
# style: Equinox MLP, eqx.filter_jit step, model built by a helper
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def build_model(key):
    return eqx.nn.MLP(in_size=2, out_size=1, width_size=8, depth=2, key=key)


@eqx.filter_value_and_grad
def compute_loss(model, x, y):
    pred = jax.vmap(model)(x)
    return jnp.mean((pred - y) ** 2)


@eqx.filter_jit
def make_step(model, opt_state, optim, x, y):
    loss, grads = compute_loss(model, x, y)
    params = eqx.filter(model, eqx.is_array)
    updates, opt_state = optim.update(grads, opt_state, params)  # expect
    model = eqx.apply_updates(model, updates)
    return loss, model, opt_state


if __name__ == "__main__":
    model = build_model(jax.random.key(0))
    optim = optax.lookahead(optax.adamw(1e-2), sync_period=5, slow_step_size=0.5)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    x = jnp.ones((16, 2))
    y = jnp.zeros((16, 1))
    for _ in range(10):
        loss, model, opt_state = make_step(model, opt_state, optim, x, y)
    print("HAZARD: no error (not expected)", loss)
