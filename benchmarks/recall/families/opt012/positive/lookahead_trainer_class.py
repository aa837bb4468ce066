# recall-case: positive
# rule: OPT012
# source: https://github.com/google-deepmind/optax/issues/1429
# source: https://github.com/google-deepmind/optax/issues/263
# shown: AttributeError ... has no attribute 'fast' inside Trainer.step
# style: trainer class, optimizer and params on self, Flax linen model, jitted step
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(16)(x))
        return nn.Dense(1)(x)


class Trainer:
    def __init__(self, model, lr: float = 1e-2, sync_period: int = 4):
        self.model = model
        self.optimizer = optax.lookahead(
            optax.sgd(lr, momentum=0.9), sync_period=sync_period, slow_step_size=0.5
        )
        self.params = None
        self.opt_state = None

    def setup(self, rng, sample):
        self.params = self.model.init(rng, sample)
        self.opt_state = self.optimizer.init(self.params)

    def loss(self, params, x, y):
        return jnp.mean((self.model.apply(params, x) - y) ** 2)

    def step(self, x, y):
        grads = jax.grad(self.loss)(self.params, x, y)
        updates, self.opt_state = self.optimizer.update(grads, self.opt_state, self.params)  # expect
        self.params = optax.apply_updates(self.params, updates)


if __name__ == "__main__":
    x = jax.random.normal(jax.random.key(0), (32, 3))
    y = x.sum(axis=1, keepdims=True)
    trainer = Trainer(Regressor())
    trainer.setup(jax.random.key(1), x)
    for _ in range(5):
        trainer.step(x, y)
    print("HAZARD: trained without error (not expected)")
