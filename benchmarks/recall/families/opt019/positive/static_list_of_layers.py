# recall-case: positive
# rule: OPT019
# source: https://github.com/patrick-kidger/equinox/issues/798
# shown: HAZARD: 3 hidden layers in the static list were never updated; only the readout trained
# style: Equinox, eqx.field(static=True) on list[eqx.nn.Linear], layers built in a loop, adamw
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class DeepNet(eqx.Module):
    hidden: list[eqx.nn.Linear] = eqx.field(static=True)  # expect
    readout: eqx.nn.Linear

    def __init__(self, width, depth, key):
        keys = jax.random.split(key, depth + 1)
        self.hidden = [eqx.nn.Linear(width, width, key=k) for k in keys[:-1]]
        self.readout = eqx.nn.Linear(width, 1, key=keys[-1])

    def __call__(self, x):
        for layer in self.hidden:
            x = jax.nn.tanh(layer(x))
        return self.readout(x)


def fit(model, x, y, steps=30):
    optim = optax.adamw(1e-2)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    for _ in range(steps):
        grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
        updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
        model = eqx.apply_updates(model, updates)
    return model


if __name__ == "__main__":
    model = DeepNet(4, 3, jax.random.key(0))
    x = jax.random.normal(jax.random.key(1), (16, 4))
    y = jnp.sin(x[:, :1])
    trained = fit(model, x, y)
    unchanged = sum(bool(jnp.all(a.weight == b.weight)) for a, b in zip(model.hidden, trained.hidden))
    moved = not bool(jnp.all(model.readout.weight == trained.readout.weight))
    print(f"HAZARD: {unchanged} hidden layers in the static list were never updated; only the readout trained"
          if unchanged and moved else "OK")
