# recall-case: negative
# rule: OPT015
# source: https://github.com/google-deepmind/optax/issues/964
# shown: OK lr 3.0e-04
# style: trainer class, MultiSteps around inject_hyperparams, lr read with optax.tree.get
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(x)


class Trainer:
    def __init__(self, lr=3e-4, accum_steps=2):
        self.model = Classifier()
        self.tx = optax.MultiSteps(optax.inject_hyperparams(optax.adam)(learning_rate=lr), accum_steps)

    def init(self, key, x):
        self.params = self.model.init(key, x)
        self.opt_state = self.tx.init(self.params)

    def current_lr(self):
        return float(optax.tree.get(self.opt_state, "learning_rate"))

    def train_step(self, x, y):
        grads = jax.grad(lambda p: optax.softmax_cross_entropy_with_integer_labels(self.model.apply(p, x), y).mean())(self.params)
        updates, self.opt_state = self.tx.update(grads, self.opt_state, self.params)
        self.params = optax.apply_updates(self.params, updates)


if __name__ == "__main__":
    x = jax.random.normal(jax.random.key(0), (12, 5))
    y = jnp.arange(12) % 3
    t = Trainer()
    t.init(jax.random.key(1), x)
    for _ in range(4):
        t.train_step(x, y)
    print(f"OK lr {t.current_lr():.1e}")
