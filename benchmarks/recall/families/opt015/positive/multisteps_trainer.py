# recall-case: positive
# rule: OPT015
# source: https://github.com/google-deepmind/optax/issues/964
# shown: AttributeError: 'MultiStepsState' object has no attribute 'hyperparams'
# style: trainer class, MultiSteps around inject_hyperparams, state on self, lr read in another method
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(nn.relu(nn.Dense(16)(x)))


class Trainer:
    def __init__(self, lr=3e-4, accum_steps=2):
        self.model = Classifier()
        inner = optax.inject_hyperparams(optax.adam)(learning_rate=lr)
        self.tx = optax.MultiSteps(inner, every_k_schedule=accum_steps)

    def init(self, key, x):
        self.params = self.model.init(key, x)
        self.opt_state = self.tx.init(self.params)

    def current_lr(self):
        return float(self.opt_state.hyperparams["learning_rate"])  # expect

    def train_step(self, x, y):
        def loss(p):
            return optax.softmax_cross_entropy_with_integer_labels(self.model.apply(p, x), y).mean()

        value, grads = jax.value_and_grad(loss)(self.params)
        updates, self.opt_state = self.tx.update(grads, self.opt_state, self.params)
        self.params = optax.apply_updates(self.params, updates)
        return value

    def fit(self, x, y, steps):
        for i in range(steps):
            loss = self.train_step(x, y)
            print(f"step {i} loss {float(loss):.3f} lr {self.current_lr():.2e}")


if __name__ == "__main__":
    x = jax.random.normal(jax.random.key(0), (12, 5))
    y = jnp.arange(12) % 3
    trainer = Trainer()
    trainer.init(jax.random.key(1), x)
    trainer.fit(x, y, 4)
    print("HAZARD: no error (not expected)")
