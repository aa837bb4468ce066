# recall-case: positive
# rule: OPT020
# class: broadcast
# source: https://github.com/google/flax/issues/4973 ("Lifted `vmap` in linen does not split rng_key when single key is passed to `apply`")
# shown: the MC-dropout head lifts the regressor with `nn.vmap(..., variable_axes={'params': None}, split_rngs={'params': False, 'dropout': True})` and is applied with `rngs=key`; a bare key becomes the 'params' stream, Dropout falls back to it, and 'params' is not split, so all 16 MC samples share one dropout mask and the predictive std is exactly 0
# style: flax.linen regression script: a config dataclass, a Dropout MLP, TrainState + optax training loop with per-step dropout keys, an MC-dropout uncertainty head built with nn.vmap, an evaluation function reporting mean and std
"""MC-dropout regression with predictive uncertainty on a 1-D toy problem (flax.linen)."""
from dataclasses import dataclass

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training.train_state import TrainState


@dataclass(frozen=True)
class Config:
    hidden: int = 64
    dropout_rate: float = 0.2
    learning_rate: float = 3e-3
    num_steps: int = 60
    batch_size: int = 32
    mc_samples: int = 16
    seed: int = 0


class Regressor(nn.Module):
    hidden: int
    dropout_rate: float

    @nn.compact
    def __call__(self, x, train: bool):
        x = nn.gelu(nn.Dense(self.hidden)(x))
        x = nn.Dropout(self.dropout_rate, deterministic=not train)(x)
        x = nn.gelu(nn.Dense(self.hidden)(x))
        x = nn.Dropout(self.dropout_rate, deterministic=not train)(x)
        return nn.Dense(1)(x)[..., 0]


def make_mc_head(cfg: Config):
    """The trained regressor, evaluated `mc_samples` times with dropout on."""
    return nn.vmap(
        Regressor,
        in_axes=(None, None),
        out_axes=0,
        variable_axes={"params": None},
        split_rngs={"params": False, "dropout": True},  # expect
        axis_size=cfg.mc_samples,
    )(hidden=cfg.hidden, dropout_rate=cfg.dropout_rate)


def make_data(rng: np.random.Generator, n: int):
    x = rng.uniform(-2, 2, size=(n, 1)).astype(np.float32)
    y = (np.sin(2 * x[:, 0]) + 0.1 * rng.normal(size=n)).astype(np.float32)
    return jnp.asarray(x), jnp.asarray(y)


def train(cfg: Config, key: jax.Array) -> TrainState:
    model = Regressor(cfg.hidden, cfg.dropout_rate)
    key, init_key = jax.random.split(key)
    params = model.init(init_key, jnp.zeros((1, 1)), train=False)["params"]
    state = TrainState.create(apply_fn=model.apply, params=params, tx=optax.adam(cfg.learning_rate))

    @jax.jit
    def train_step(state, x, y, dropout_key):
        def loss_fn(params):
            pred = state.apply_fn({"params": params}, x, train=True, rngs={"dropout": dropout_key})
            return jnp.mean((pred - y) ** 2)

        loss, grads = jax.value_and_grad(loss_fn)(state.params)
        return state.apply_gradients(grads=grads), loss

    data_rng = np.random.default_rng(cfg.seed)
    for step in range(cfg.num_steps):
        x, y = make_data(data_rng, cfg.batch_size)
        key, dropout_key = jax.random.split(key)
        state, loss = train_step(state, x, y, dropout_key)
        if step % 20 == 0:
            print(f"step {step}: mse {float(loss):.4f}")
    return state


def predict_with_uncertainty(cfg: Config, params, x, key):
    mc_head = make_mc_head(cfg)
    samples = mc_head.apply({"params": params}, x, True, rngs=key)  # expect
    return samples.mean(axis=0), samples.std(axis=0), samples


def main() -> None:
    cfg = Config()
    key = jax.random.key(cfg.seed)
    key, train_key, mc_key = jax.random.split(key, 3)
    state = train(cfg, train_key)
    x_test = jnp.linspace(-3, 3, 7)[:, None]
    mean, std, samples = predict_with_uncertainty(cfg, state.params, x_test, mc_key)
    print("predictive mean:", np.round(np.asarray(mean), 3))
    print("predictive std: ", np.round(np.asarray(std), 3))
    if bool(jnp.all(samples == samples[0])):
        print(f"HAZARD: all {cfg.mc_samples} MC-dropout samples used the same dropout mask (std is 0 everywhere)")


if __name__ == "__main__":
    main()
