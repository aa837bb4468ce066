# recall-case: positive
# rule: OPT019
# source: https://github.com/patrick-kidger/equinox/issues/798
# source: https://github.com/patrick-kidger/equinox/issues/214
# shown: HAZARD: learnable scale stayed at 1.0 after 100 steps (target 3.0); weight moved to 5.36
# style: Equinox module, array marked static, optax adam training loop
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class ScaledLinear(eqx.Module):
    weight: jax.Array
    scale: jax.Array = eqx.field(static=True)  # expect

    def __init__(self, n):
        self.weight = jnp.ones(n)
        self.scale = jnp.ones(n)

    def __call__(self, x):
        return self.scale * self.weight * x


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
    s = float(model.scale[0])
    print(f"HAZARD: learnable scale stayed at {s} after 100 steps (target 3.0); weight moved to {float(model.weight[0]):.2f}"
          if s == 1.0 else "OK")
