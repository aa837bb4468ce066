# recall-case: negative
# rule: OPT006
# source: https://github.com/patrick-kidger/equinox/issues/706
# shown: loss 3.99 -> 0.31 over 10 steps with eqx.filter_jit / eqx.filter_value_and_grad on a Sequential holding gelu (OK)
# style: trainer class, the fix from the thread
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class Trainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.optim = optax.adam(lr)
        self.state = self.optim.init(eqx.filter(model, eqx.is_array))

    @staticmethod
    def loss(model, x, y):
        return jnp.mean((jax.vmap(model)(x) - y) ** 2)

    @eqx.filter_jit
    def _step(self, model, state, x, y):
        loss, grads = eqx.filter_value_and_grad(self.loss)(model, x, y)
        updates, state = self.optim.update(grads, state)
        return eqx.apply_updates(model, updates), state, loss

    def step(self, x, y):
        self.model, self.state, loss = self._step(self.model, self.state, x, y)
        return float(loss)


if __name__ == "__main__":
    k1, k2 = jax.random.split(jax.random.key(42))
    model = eqx.nn.Sequential([eqx.nn.Linear(6, 16, key=k1), eqx.nn.Lambda(jax.nn.gelu), eqx.nn.Linear(16, 1, key=k2)])
    tr = Trainer(model)
    x, y = jnp.ones((4, 6)), jnp.full((4, 1), 2.0)
    losses = [tr.step(x, y) for _ in range(10)]
    print(f"loss {losses[0]:.4f} -> {losses[-1]:.4f}")
    assert losses[-1] < losses[0]
    print("OK")
