# recall-case: positive
# rule: OPT005
# source: https://github.com/google/flax/issues/4144
# source: https://github.com/patrick-kidger/optimistix/issues/121
# shown: HAZARD: TypeError scale_by_zoom_linesearch.<locals>.update_fn() missing 3 required keyword-only arguments: 'value', 'grad', and 'value_fn'
# style: trainer class: solver stored on self, jax.jit(self.solver.update) built in __init__, called from another method with Flax params
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax


class Quadratic(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


class Trainer:
    def __init__(self, model, x, y):
        self.model, self.x, self.y = model, x, y
        self.solver = optax.lbfgs(memory_size=5)
        self.update = jax.jit(self.solver.update)

    def loss(self, params):
        return jnp.mean((self.model.apply(params, self.x) - self.y) ** 2)

    def run(self, params, steps=5):
        state = self.solver.init(params)
        for _ in range(steps):
            grads = jax.grad(self.loss)(params)
            updates, state = self.update(grads, state, params)  # expect
            params = optax.apply_updates(params, updates)
        return params


if __name__ == "__main__":
    x = jnp.linspace(-1, 1, 8)[:, None]
    model = Quadratic()
    params = model.init(jax.random.key(0), x)
    try:
        Trainer(model, x, 3 * x + 1).run(params)
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("done")
