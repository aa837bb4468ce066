# recall-case: negative
# rule: OPT016
# source: https://github.com/facebookresearch/schedule_free/issues/15
# shown: OK eval loss ...
# style: trainer class, schedule-free AdamW used directly (its own state), Flax linen
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(nn.tanh(nn.Dense(16)(x)))


class Trainer:
    def __init__(self, lr=3e-3):
        self.model = Net()
        self.tx = optax.contrib.schedule_free_adamw(lr, warmup_steps=10)

    def init(self, key, x):
        self.params = self.model.init(key, x)
        self.opt_state = self.tx.init(self.params)

    def loss(self, params, x, y):
        return optax.softmax_cross_entropy_with_integer_labels(self.model.apply(params, x), y).mean()

    def train_step(self, x, y):
        grads = jax.grad(self.loss)(self.params, x, y)
        updates, self.opt_state = self.tx.update(grads, self.opt_state, self.params)
        self.params = optax.apply_updates(self.params, updates)

    def evaluate(self, x, y):
        return self.loss(optax.contrib.schedule_free_eval_params(self.opt_state, self.params), x, y)


if __name__ == "__main__":
    x = jax.random.normal(jax.random.key(0), (32, 4))
    y = (x[:, 0] > 0).astype(jnp.int32)
    t = Trainer()
    t.init(jax.random.key(1), x)
    for _ in range(10):
        t.train_step(x, y)
    print("OK eval loss", float(t.evaluate(x, y)))
