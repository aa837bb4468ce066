# recall-case: negative
# rule: OPT014
# source: https://github.com/google-deepmind/optax/issues/308
# shown: OK parameter norm x0.99
# style: trainer class, L2 decay added to the gradient before sgd (the order in the thread)
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.relu(nn.Dense(16)(x)))


class Trainer:
    def __init__(self, lr: float = 0.1, weight_decay: float = 1e-3):
        self.model = MLP()
        self.tx = optax.chain(optax.add_decayed_weights(weight_decay), optax.sgd(lr, momentum=0.9))

    def init(self, key, x):
        self.params = self.model.init(key, x)
        self.state = self.tx.init(self.params)

    def step(self, x, y):
        grads = jax.grad(lambda p: jnp.mean((self.model.apply(p, x) - y) ** 2))(self.params)
        updates, self.state = self.tx.update(grads, self.state, self.params)
        self.params = optax.apply_updates(self.params, updates)


if __name__ == "__main__":
    x = jnp.zeros((8, 3))
    t = Trainer()
    t.init(jax.random.key(0), x)
    y = t.model.apply(t.params, x)
    n0 = optax.global_norm(t.params)
    for _ in range(20):
        t.step(x, y)
    r = float(optax.global_norm(t.params) / n0)
    assert r < 1
    print(f"OK parameter norm x{r:.2f}")
