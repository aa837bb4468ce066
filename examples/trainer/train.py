"""Training: a few epochs of AdamW, then an L-BFGS fine-tune of the whole model."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax

from trainer.model import Classifier
from trainer.optim import make_optimizer

CONFIG = {"optimizer": "adamw", "lr": 3e-4, "wd": 1e-4, "steps": 1000, "accumulate": 4}


def loss_fn(model: Classifier, x: jax.Array, y: jax.Array) -> jax.Array:
    logits = jax.vmap(model)(x)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


@jax.jit
def train_step(model: Classifier, opt_state, x, y):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, model)
    model = optax.apply_updates(model, updates)
    return model, opt_state, loss


def fine_tune(model: Classifier, x, y):
    solver = optax.lbfgs()
    state = solver.init(model)
    for _ in range(10):
        value, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y)
        updates, state = solver.update(grads, state, model)
        model = eqx.apply_updates(model, updates)
    return model


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    model = Classifier(16, 10, key=key)
    optimizer = make_optimizer(CONFIG, model)
    opt_state = optimizer.init(model)
    x, y = jnp.ones((32, 16)), jnp.zeros((32,), dtype=jnp.int32)
    for _ in range(100):
        model, opt_state, loss = train_step(model, opt_state, x, y)
    model = fine_tune(model, x, y)
