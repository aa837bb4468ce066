"""The model: an MLP classifier with a learnt temperature."""

from typing import Callable

import equinox as eqx
import jax
import jax.numpy as jnp


class Classifier(eqx.Module):
    mlp: eqx.nn.MLP
    head: eqx.nn.Linear
    activation: Callable
    log_temperature: jax.Array

    def __init__(self, in_size: int, num_classes: int, *, key: jax.Array):
        mlp_key, head_key = jax.random.split(key)
        self.mlp = eqx.nn.MLP(in_size, 64, width_size=128, depth=2, key=mlp_key)
        self.head = eqx.nn.Linear(64, num_classes, key=head_key)
        self.activation = jax.nn.gelu
        self.log_temperature = jnp.zeros(())

    def __call__(self, x: jax.Array) -> jax.Array:
        logits = self.head(self.activation(self.mlp(x)))
        return logits / jnp.exp(self.log_temperature)


def decay_mask(model: Classifier) -> Classifier:
    """Weight-decay the weight matrices only, not biases or the temperature."""
    mask = jax.tree_util.tree_map(lambda _: False, model)
    return eqx.tree_at(
        lambda m: (m.head.weight, m.mlp.layers[0].weight),
        mask,
        replace=(True, True),
    )
