"""A 200-line Equinox + Optax training script: the single-file latency benchmark's input.

It has one finding (OPT003: `optimizer.init(model)` on a model holding activation functions), so
a timed check also computes positions, as an editor's check of a file with a problem does.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import math
import time
from collections.abc import Iterator

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass(frozen=True)
class Config:
    width: int = 64
    depth: int = 3
    batch_size: int = 128
    steps: int = 1_000
    learning_rate: float = 3e-4
    warmup_steps: int = 100
    weight_decay: float = 1e-4
    clip_norm: float = 1.0
    seed: int = 0
    log_every: int = 50


class Block(eqx.Module):
    linear: eqx.nn.Linear
    norm: eqx.nn.LayerNorm
    dropout: eqx.nn.Dropout

    def __init__(self, width: int, *, key: jax.Array) -> None:
        self.linear = eqx.nn.Linear(width, width, key=key)
        self.norm = eqx.nn.LayerNorm(width)
        self.dropout = eqx.nn.Dropout(0.1)

    def __call__(self, x: jax.Array, *, key: jax.Array | None = None) -> jax.Array:
        y = jax.nn.gelu(self.linear(self.norm(x)))
        return x + self.dropout(y, key=key, inference=key is None)


class Model(eqx.Module):
    embed: eqx.nn.Linear
    blocks: list[Block]
    head: eqx.nn.MLP

    def __init__(self, config: Config, *, key: jax.Array) -> None:
        keys = jax.random.split(key, config.depth + 2)
        self.embed = eqx.nn.Linear(2, config.width, key=keys[0])
        self.blocks = [Block(config.width, key=k) for k in keys[1:-1]]
        self.head = eqx.nn.MLP(config.width, 1, config.width, 2, key=keys[-1])

    def __call__(self, x: jax.Array, *, key: jax.Array | None = None) -> jax.Array:
        h = self.embed(x)
        keys = [None] * len(self.blocks) if key is None else list(
            jax.random.split(key, len(self.blocks)))
        for block, block_key in zip(self.blocks, keys, strict=True):
            h = block(h, key=block_key)
        return self.head(h)


def make_schedule(config: Config) -> optax.Schedule:
    return optax.warmup_cosine_decay_schedule(
        init_value=0.0,
        peak_value=config.learning_rate,
        warmup_steps=config.warmup_steps,
        decay_steps=config.steps,
        end_value=config.learning_rate * 0.1,
    )


def make_optimizer(config: Config) -> optax.GradientTransformation:
    return optax.chain(
        optax.clip_by_global_norm(config.clip_norm),
        optax.adamw(make_schedule(config), weight_decay=config.weight_decay),
    )


def target_function(x: jax.Array) -> jax.Array:
    return jnp.sin(3.0 * x[..., :1]) * jnp.cos(2.0 * x[..., 1:])


def batches(config: Config, key: jax.Array) -> Iterator[tuple[jax.Array, jax.Array]]:
    while True:
        key, subkey = jax.random.split(key)
        x = jax.random.uniform(subkey, (config.batch_size, 2), minval=-1.0, maxval=1.0)
        yield x, target_function(x)


def loss_fn(model: Model, x: jax.Array, y: jax.Array, key: jax.Array) -> jax.Array:
    keys = jax.random.split(key, x.shape[0])
    prediction = jax.vmap(lambda xi, ki: model(xi, key=ki))(x, keys)
    return jnp.mean((prediction - y) ** 2)


@eqx.filter_jit
def train_step(model: Model, opt_state: optax.OptState, x: jax.Array, y: jax.Array,
               key: jax.Array, optimizer: optax.GradientTransformation):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y, key)
    updates, opt_state = optimizer.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    model = eqx.apply_updates(model, updates)
    return model, opt_state, loss


@eqx.filter_jit
def evaluate(model: Model, x: jax.Array, y: jax.Array) -> jax.Array:
    prediction = jax.vmap(lambda xi: model(xi))(x)
    return jnp.mean((prediction - y) ** 2)


def parameter_count(model: Model) -> int:
    leaves = jax.tree_util.tree_leaves(eqx.filter(model, eqx.is_array))
    return sum(leaf.size for leaf in leaves)


def global_norm(tree) -> float:
    leaves = jax.tree_util.tree_leaves(eqx.filter(tree, eqx.is_array))
    return float(math.sqrt(sum(float(jnp.sum(leaf ** 2)) for leaf in leaves)))


class Logger:
    def __init__(self, every: int) -> None:
        self.every = every
        self.history: list[tuple[int, float]] = []
        self.started = time.perf_counter()

    def log(self, step: int, loss: float) -> None:
        self.history.append((step, loss))
        if step % self.every == 0:
            elapsed = time.perf_counter() - self.started
            print(f"step {step:>6}  loss {loss:.5f}  {elapsed:.1f}s")

    def best(self) -> tuple[int, float]:
        return min(self.history, key=lambda item: item[1])


def save(model: Model, path: str) -> None:
    eqx.tree_serialise_leaves(path, model)


def load(config: Config, path: str) -> Model:
    skeleton = Model(config, key=jax.random.PRNGKey(0))
    return eqx.tree_deserialise_leaves(path, skeleton)


def train(config: Config) -> Model:
    key = jax.random.PRNGKey(config.seed)
    model_key, data_key, train_key = jax.random.split(key, 3)
    model = Model(config, key=model_key)
    optimizer = make_optimizer(config)
    opt_state = optimizer.init(model)
    logger = Logger(config.log_every)
    data = batches(config, data_key)
    for step in range(config.steps):
        train_key, step_key = jax.random.split(train_key)
        x, y = next(data)
        model, opt_state, loss = train_step(model, opt_state, x, y, step_key, optimizer)
        logger.log(step, float(loss))
    best_step, best_loss = logger.best()
    print(f"best loss {best_loss:.5f} at step {best_step}; {parameter_count(model)} parameters")
    return model


def evaluate_on_grid(model: Model, points: int = 32) -> float:
    axis = jnp.linspace(-1.0, 1.0, points)
    grid = jnp.stack(jnp.meshgrid(axis, axis), axis=-1).reshape(-1, 2)
    return float(evaluate(model, grid, target_function(grid)))


def parse_arguments() -> Config:
    parser = argparse.ArgumentParser(description=__doc__)
    defaults = Config()
    for field in dataclasses.fields(Config):
        parser.add_argument(f"--{field.name.replace('_', '-')}", type=field.type
                            if isinstance(field.type, type) else type(getattr(defaults, field.name)),
                            default=getattr(defaults, field.name))
    arguments = parser.parse_args()
    return Config(**{field.name: getattr(arguments, field.name)
                     for field in dataclasses.fields(Config)})


@functools.cache
def banner() -> str:
    return f"jax {jax.__version__} on {jax.default_backend()}"


def main() -> None:
    config = parse_arguments()
    print(banner())
    model = train(config)
    print(f"grid loss {evaluate_on_grid(model):.5f}")
    print(f"weight norm {global_norm(model):.3f}")
    save(model, "model.eqx")


if __name__ == "__main__":
    main()
