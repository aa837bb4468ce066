# recall-case: positive
# rule: OPT016
# source: https://github.com/facebookresearch/schedule_free/issues/15
# shown: AttributeError: 'tuple' object has no attribute 'b1' in Trainer.evaluate
# style: trainer class, optimizer and state on self, eval in another method, Flax linen
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(nn.tanh(nn.Dense(16)(x)))


class Trainer:
    def __init__(self, lr=3e-3, weight_decay=1e-4):
        self.model = Net()
        self.tx = optax.chain(
            optax.clip_by_global_norm(1.0),
            optax.contrib.schedule_free_adamw(lr, warmup_steps=10, weight_decay=weight_decay),
        )

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
        eval_params = optax.contrib.schedule_free_eval_params(self.opt_state, self.params)  # expect
        return self.loss(eval_params, x, y)


if __name__ == "__main__":
    x = jax.random.normal(jax.random.key(0), (32, 4))
    y = (x[:, 0] > 0).astype(jnp.int32)
    t = Trainer()
    t.init(jax.random.key(1), x)
    for _ in range(10):
        t.train_step(x, y)
    print("HAZARD: no error (not expected)", t.evaluate(x, y))
