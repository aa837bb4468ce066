# recall-case: negative
# rule: OPT003
# source: https://github.com/patrick-kidger/equinox/issues/105
# shown: loss 0.341 -> 0.071 over 20 steps (OK)
# style: trainer class; the fix from the thread: init/update on eqx.filter(model, eqx.is_array), eqx.apply_updates
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class Trainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.optim = optax.adamw(lr)
        self.opt_state = self.optim.init(eqx.filter(model, eqx.is_array))

    def step(self, x, y):
        loss, grads = eqx.filter_value_and_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(self.model)
        updates, self.opt_state = self.optim.update(grads, self.opt_state, eqx.filter(self.model, eqx.is_array))
        self.model = eqx.apply_updates(self.model, updates)
        return float(loss)


if __name__ == "__main__":
    tr = Trainer(eqx.nn.MLP(2, 1, 8, 2, key=jax.random.key(0)))
    x = jnp.linspace(-1, 1, 16).reshape(8, 2)
    y = jnp.sum(x, axis=1, keepdims=True) * 0.5
    losses = [tr.step(x, y) for _ in range(20)]
    print(f"loss {losses[0]:.3f} -> {losses[-1]:.3f}")
    assert losses[-1] < losses[0]
    print("OK")
