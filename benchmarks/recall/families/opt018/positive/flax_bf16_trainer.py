# recall-case: positive
# rule: OPT018
# source: https://github.com/google-deepmind/optax/issues/1414
# source: https://github.com/google-deepmind/optax/issues/1532
# shown: HAZARD: loss after 2 steps is nan (bfloat16 params, injected hyperparams)
# style: trainer class, Flax linen with param_dtype=bfloat16, warmup schedule injected for logging
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(32, dtype=jnp.bfloat16, param_dtype=jnp.bfloat16)(x)
        return nn.Dense(1, dtype=jnp.bfloat16, param_dtype=jnp.bfloat16)(nn.gelu(x))


class Trainer:
    def __init__(self, peak_lr=3e-4, warmup=10, total=100, weight_decay=0.1):
        self.model = MLP()
        schedule = optax.warmup_cosine_decay_schedule(0.0, peak_lr, warmup, total)
        self.tx = optax.inject_hyperparams(optax.adamw)(learning_rate=schedule, weight_decay=weight_decay)  # expect

    def init(self, key, x):
        self.params = self.model.init(key, x)
        self.opt_state = self.tx.init(self.params)

    def loss(self, params, x, y):
        return jnp.mean((self.model.apply(params, x).astype(jnp.float32) - y) ** 2)

    def step(self, x, y):
        loss, grads = jax.value_and_grad(self.loss)(self.params, x, y)
        updates, self.opt_state = self.tx.update(grads, self.opt_state, self.params)
        self.params = optax.apply_updates(self.params, updates)
        return loss


if __name__ == "__main__":
    x = jax.random.normal(jax.random.key(0), (16, 4))
    y = x.sum(axis=1, keepdims=True)
    t = Trainer()
    t.init(jax.random.key(1), x)
    for _ in range(2):
        t.step(x, y)
    loss = float(t.loss(t.params, x, y))
    print(f"HAZARD: loss after 2 steps is {loss} (bfloat16 params, injected hyperparams)" if loss != loss else "OK")
