import jax
import optax


def trainable_mask(params, prefixes):
    return {name: jax.tree_util.tree_map(lambda _: name.startswith(prefixes), sub) for name, sub in params.items()}


def partial_optimizer(optimizer, params, trainable_prefixes=("head",)):
    """Only the parameters under the given prefixes are meant to change."""
    return optax.masked(optimizer, trainable_mask(params, trainable_prefixes))
