# recall-case: negative
# rule: OPT019
# source: https://github.com/patrick-kidger/equinox/issues/798
# shown: OK scale trained to ~3.0
# style: Equinox module, static hyperparameters (int, str), arrays left dynamic
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class ScaledLinear(eqx.Module):
    weight: jax.Array
    scale: jax.Array
    size: int = eqx.field(static=True)
    activation: str = eqx.field(static=True)

    def __init__(self, n, activation="identity"):
        self.weight = jnp.ones(n)
        self.scale = jnp.ones(n)
        self.size = n
        self.activation = activation

    def __call__(self, x):
        y = self.scale * self.weight * x
        return jax.nn.relu(y) if self.activation == "relu" else y


@eqx.filter_jit
def step(model, opt_state, x, y):
    grads = eqx.filter_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    updates, opt_state = optim.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state


model = ScaledLinear(3)
optim = optax.adam(5e-2)
opt_state = optim.init(eqx.filter(model, eqx.is_array))

if __name__ == "__main__":
    x = jnp.ones(3)
    y = 9.0 * jnp.ones(3)
    for _ in range(100):
        model, opt_state = step(model, opt_state, x, y)
    assert float(model.scale[0]) != 1.0
    print("OK scale trained to", float(model.scale[0]))
