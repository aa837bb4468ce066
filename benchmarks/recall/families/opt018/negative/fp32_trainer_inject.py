# recall-case: negative
# rule: OPT018
# source: https://github.com/google-deepmind/optax/issues/1532
# shown: OK loss finite ...
# style: trainer class, Flax linen with bfloat16 compute but float32 params, injected adamw
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(32, dtype=jnp.bfloat16)(x)  # bf16 activations, float32 parameters
        return nn.Dense(1, dtype=jnp.bfloat16)(nn.gelu(x))


class Trainer:
    def __init__(self, peak_lr=3e-4):
        self.model = MLP()
        schedule = optax.warmup_cosine_decay_schedule(0.0, peak_lr, 10, 100)
        self.tx = optax.inject_hyperparams(optax.adamw)(learning_rate=schedule, weight_decay=0.1)

    def init(self, key, x):
        self.params = self.model.init(key, x)
        self.opt_state = self.tx.init(self.params)

    def loss(self, params, x, y):
        return jnp.mean((self.model.apply(params, x).astype(jnp.float32) - y) ** 2)

    def step(self, x, y):
        grads = jax.grad(self.loss)(self.params, x, y)
        updates, self.opt_state = self.tx.update(grads, self.opt_state, self.params)
        self.params = optax.apply_updates(self.params, updates)


if __name__ == "__main__":
    x = jax.random.normal(jax.random.key(0), (16, 4))
    y = x.sum(axis=1, keepdims=True)
    t = Trainer()
    t.init(jax.random.key(1), x)
    for _ in range(3):
        t.step(x, y)
    loss = float(t.loss(t.params, x, y))
    assert loss == loss
    print("OK loss finite", loss)
