# recall-case: negative
# rule: grad-accumulation
# source: https://github.com/google-deepmind/optax/issues/320
# source: https://github.com/jenkspt/gpt-jax/issues/2
# shown: OK MultiSteps(clip + adamw) with grad_accum_steps=4 from the config
# style: trainer class with a config dataclass; accumulation wraps the whole chain with MultiSteps
import dataclasses

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class Config:
    lr: float = 1e-3
    grad_accum_steps: int = 4
    max_grad_norm: float = 1.0


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.tanh(nn.Dense(16)(x)))


class Trainer:
    def __init__(self, cfg: Config):
        self.model = Net()
        txs = [optax.clip_by_global_norm(cfg.max_grad_norm), optax.adamw(cfg.lr)]
        tx = optax.chain(*txs)
        if cfg.grad_accum_steps > 1:
            tx = optax.MultiSteps(tx, every_k_schedule=cfg.grad_accum_steps)
        self.tx = tx

    def init(self, key, x):
        self.params = self.model.init(key, x)
        self.opt_state = self.tx.init(self.params)

        self._update = jax.jit(self._pure_update)

    def _pure_update(self, params, opt_state, x, y):
        grads = jax.grad(lambda p: jnp.mean((self.model.apply(p, x) - y) ** 2))(params)
        updates, opt_state = self.tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state

    def micro_step(self, x, y):
        self.params, self.opt_state = self._update(self.params, self.opt_state, x, y)


if __name__ == "__main__":
    t = Trainer(Config())
    xs = jax.random.normal(jax.random.key(0), (8, 8, 3))
    t.init(jax.random.key(1), xs[0])
    for x in xs:
        t.micro_step(x, jnp.sin(x[:, :1]))
    print("OK MultiSteps(clip + adamw) with grad_accum_steps=4 from the config")
