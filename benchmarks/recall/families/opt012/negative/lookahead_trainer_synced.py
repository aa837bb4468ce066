# recall-case: negative
# rule: OPT012
# source: https://github.com/google-deepmind/optax/issues/263
# shown: runs; prints OK
# style: trainer class holding LookaheadParams on self, Flax linen model
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.relu(nn.Dense(16)(x)))


class Trainer:
    def __init__(self, model, lr: float = 1e-2):
        self.model = model
        self.optimizer = optax.lookahead(optax.sgd(lr, momentum=0.9), sync_period=4, slow_step_size=0.5)

    def setup(self, rng, sample):
        params = self.model.init(rng, sample)
        self.params = optax.LookaheadParams.init_synced(params)
        self.opt_state = self.optimizer.init(self.params)

    def loss(self, params, x, y):
        return jnp.mean((self.model.apply(params, x) - y) ** 2)

    def step(self, x, y):
        grads = jax.grad(self.loss)(self.params.fast, x, y)
        updates, self.opt_state = self.optimizer.update(grads, self.opt_state, self.params)
        self.params = optax.apply_updates(self.params, updates)

    def evaluate(self, x, y):
        return self.loss(self.params.slow, x, y)


if __name__ == "__main__":
    x = jax.random.normal(jax.random.key(0), (32, 3))
    y = x.sum(axis=1, keepdims=True)
    trainer = Trainer(Regressor())
    trainer.setup(jax.random.key(1), x)
    for _ in range(8):
        trainer.step(x, y)
    print("OK", float(trainer.evaluate(x, y)))
