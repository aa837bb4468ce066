# recall-case: negative
# rule: OPT021
# source: https://github.com/patrick-kidger/equinox/issues/502
# shown: OK trained
# style: trainer class, gradient function from a static method, called positionally
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optim = optax.adamw(lr)
        self.opt_state = self.optim.init(eqx.filter(model, eqx.is_array))
        self.grad_fn = eqx.filter_grad(self.loss)

    @staticmethod
    def loss(model, batch):
        x, y = batch
        return jnp.mean((jax.vmap(model)(x) - y) ** 2)

    def train_step(self, batch):
        grads = self.grad_fn(self.model, batch)
        updates, self.opt_state = self.optim.update(grads, self.opt_state, eqx.filter(self.model, eqx.is_array))
        self.model = eqx.apply_updates(self.model, updates)


if __name__ == "__main__":
    t = Trainer(eqx.nn.Linear(3, 1, key=jax.random.key(0)))
    t.train_step((jnp.ones((4, 3)), jnp.zeros((4, 1))))
    print("OK trained")
