# recall-case: positive
# rule: OPT009
# source: https://github.com/google-deepmind/optax/issues/159
# source: https://github.com/google-deepmind/optax/issues/296
# shown: first layer moved 8.09e+06; loss 16.731 -> 2.6e+29; HAZARD: masked-out leaves get the raw gradient added
# style: Equinox; mask built with eqx.tree_at over a False tree (a filter spec), optimizer masked to train only the last layer
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


def last_layer_only(model):
    spec = jax.tree_util.tree_map(lambda _: False, eqx.filter(model, eqx.is_array))
    return eqx.tree_at(lambda m: (m.layers[-1].weight, m.layers[-1].bias), spec, replace=(True, True))


def loss(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


if __name__ == "__main__":
    model = eqx.nn.MLP(3, 1, 8, 2, key=jax.random.key(0))
    optim = optax.masked(optax.adamw(1e-3), last_layer_only(model))  # expect
    state = optim.init(eqx.filter(model, eqx.is_array))
    x, y = jnp.ones((8, 3)), jnp.full((8, 1), 4.0)
    w0 = model.layers[0].weight
    l0 = float(loss(model, x, y))
    for _ in range(3):
        grads = eqx.filter_grad(loss)(model, x, y)
        updates, state = optim.update(grads, state, eqx.filter(model, eqx.is_array))
        model = eqx.apply_updates(model, updates)
    moved = float(jnp.abs(model.layers[0].weight - w0).max())
    print(f"first layer moved {moved:.2e}; loss {l0:.3f} -> {float(loss(model, x, y)):.3f}")
    if moved > 0:
        print("HAZARD: optax.masked does not freeze: masked-out leaves get the raw gradient added")
