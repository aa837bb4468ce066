# recall-case: positive
# rule: OPT014
# source: https://github.com/google-deepmind/optax/issues/364
# source: https://github.com/google-deepmind/optax/issues/392
# shown: HAZARD: parameter norm grew 1.000 -> 1.628 of its start in 10 steps
# style: trainer class, hand-written chain with scale(-lr) before add_decayed_weights, optimizer on self
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.gelu(nn.Dense(32)(x)))


class Trainer:
    def __init__(self, lr: float = 1e-4, weight_decay: float = 0.05):
        self.model = MLP()
        self.optimizer = optax.chain(  # expect
            optax.scale_by_adam(),
            optax.scale(-lr),
            optax.add_decayed_weights(weight_decay),
        )

    def init(self, key, x):
        self.params = self.model.init(key, x)
        self.opt_state = self.optimizer.init(self.params)

    @staticmethod
    def _norm(params):
        return jnp.sqrt(sum(jnp.sum(p**2) for p in jax.tree_util.tree_leaves(params)))

    def train_step(self, x, y):
        def loss(p):
            return jnp.mean((self.model.apply(p, x) - y) ** 2)

        grads = jax.grad(loss)(self.params)
        updates, self.opt_state = self.optimizer.update(grads, self.opt_state, self.params)
        self.params = optax.apply_updates(self.params, updates)


if __name__ == "__main__":
    x = jax.random.normal(jax.random.key(0), (64, 8))
    y = jnp.zeros((64, 1))
    trainer = Trainer()
    trainer.init(jax.random.key(1), x)
    n0 = trainer._norm(trainer.params)
    for _ in range(10):
        trainer.train_step(x, y)
    ratio = float(trainer._norm(trainer.params) / n0)
    print(f"HAZARD: parameter norm grew 1.000 -> {ratio:.3f} of its start in 10 steps" if ratio > 1 else "OK")
