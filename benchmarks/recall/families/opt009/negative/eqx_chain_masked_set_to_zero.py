# recall-case: negative
# rule: OPT009
# source: https://github.com/google-deepmind/optax/issues/296
# shown: first layer unchanged, last layer trained (OK)
# style: Equinox; chain(adamw, masked(set_to_zero(), frozen_spec)): the recipe from the thread
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


def frozen_spec(model):
    spec = jax.tree_util.tree_map(lambda _: True, eqx.filter(model, eqx.is_array))
    return eqx.tree_at(lambda m: (m.layers[-1].weight, m.layers[-1].bias), spec, replace=(False, False))


if __name__ == "__main__":
    model = eqx.nn.MLP(3, 1, 8, 2, key=jax.random.key(0))
    optim = optax.chain(optax.adamw(1e-3), optax.masked(optax.set_to_zero(), frozen_spec(model)))
    state = optim.init(eqx.filter(model, eqx.is_array))
    w0, wl = model.layers[0].weight, model.layers[-1].weight
    for _ in range(3):
        grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(jnp.ones((8, 3))) - 4.0) ** 2))(model)
        updates, state = optim.update(grads, state, eqx.filter(model, eqx.is_array))
        model = eqx.apply_updates(model, updates)
    print("first layer moved", float(jnp.abs(model.layers[0].weight - w0).max()), "last layer moved", float(jnp.abs(model.layers[-1].weight - wl).max()))
    assert bool(jnp.all(model.layers[0].weight == w0))
    print("OK")
