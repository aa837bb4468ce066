# recall-case: negative
# rule: OPT020
# class: calls-and-state
# source: https://github.com/henryaddison/mlde/pull/34
# shown: the evaluation key is fixed on purpose (its own seed, apart from the training stream) and consumed once, to draw the validation noise levels and noise that every checkpoint is scored on; training keys are split per step; no KeyReuseError under jax_debug_key_reuse; prints OK
# style: Equinox denoising score-matching trainer class: config dataclass, a model, an optax optimizer, a jitted make_step, periodic validation on fixed noise
"""Denoising score matching with a fixed validation set (comparable across checkpoints)."""
from dataclasses import dataclass

import equinox as eqx
import jax
import jax.numpy as jnp
import optax

jax.config.update("jax_debug_key_reuse", True)


@dataclass(frozen=True)
class Config:
    data_dim: int = 4
    batch_size: int = 16
    num_val: int = 32
    steps: int = 6
    eval_every: int = 2
    lr: float = 1e-3
    train_seed: int = 0
    eval_seed: int = 1234


class ScoreNet(eqx.Module):
    mlp: eqx.nn.MLP

    def __init__(self, data_dim: int, *, key):
        self.mlp = eqx.nn.MLP(data_dim + 1, data_dim, 64, 2, activation=jax.nn.silu, key=key)

    def __call__(self, x, sigma):
        return self.mlp(jnp.concatenate([x, jnp.log(sigma)[None]]))


def dsm_loss(model, x, sigma, noise):
    x_noisy = x + sigma[:, None] * noise
    pred = jax.vmap(model)(x_noisy, sigma)
    return jnp.mean(jnp.sum((sigma[:, None] * pred + noise) ** 2, axis=-1))


class Trainer:
    def __init__(self, cfg: Config, data: jax.Array):
        self.cfg = cfg
        self.data = data
        self.key = jax.random.key(cfg.train_seed)
        self.key, model_key = jax.random.split(self.key)
        self.model = ScoreNet(cfg.data_dim, key=model_key)
        self.optim = optax.adam(cfg.lr)
        self.opt_state = self.optim.init(eqx.filter(self.model, eqx.is_array))

        # Validation noise is fixed on purpose: every checkpoint is scored on the same draws.
        eval_key = jax.random.key(cfg.eval_seed)
        sigma_key, noise_key, idx_key = jax.random.split(eval_key, 3)
        self.val_x = data[jax.random.choice(idx_key, data.shape[0], (cfg.num_val,))]
        self.val_sigma = jnp.exp(jax.random.uniform(sigma_key, (cfg.num_val,), minval=-3.0, maxval=0.0))
        self.val_noise = jax.random.normal(noise_key, (cfg.num_val, cfg.data_dim))

    @staticmethod
    @eqx.filter_jit
    def make_step(model, opt_state, optim, x, key):
        sigma_key, noise_key = jax.random.split(key)
        sigma = jnp.exp(jax.random.uniform(sigma_key, (x.shape[0],), minval=-3.0, maxval=0.0))
        noise = jax.random.normal(noise_key, x.shape)
        loss, grads = eqx.filter_value_and_grad(dsm_loss)(model, x, sigma, noise)
        updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
        return eqx.apply_updates(model, updates), opt_state, loss

    def validate(self) -> float:
        return float(dsm_loss(self.model, self.val_x, self.val_sigma, self.val_noise))

    def fit(self) -> list[float]:
        val_losses = []
        for step in range(self.cfg.steps):
            self.key, batch_key, step_key = jax.random.split(self.key, 3)
            x = self.data[jax.random.choice(batch_key, self.data.shape[0], (self.cfg.batch_size,))]
            self.model, self.opt_state, loss = self.make_step(self.model, self.opt_state, self.optim, x, step_key)
            if (step + 1) % self.cfg.eval_every == 0:
                val_losses.append(self.validate())
                print(f"step {step + 1}: train {float(loss):.3f}, val {val_losses[-1]:.3f}")
        return val_losses


def main() -> None:
    cfg = Config()
    data = jax.random.normal(jax.random.key(99), (256, cfg.data_dim)) * jnp.array([1.0, 0.5, 2.0, 1.5])
    Trainer(cfg, data).fit()
    print("OK")


if __name__ == "__main__":
    main()
