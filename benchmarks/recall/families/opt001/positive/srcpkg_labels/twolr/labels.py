import jax
import equinox as eqx


def param_labels(model, slow_part="embed"):
    """A label per trainable leaf: 'slow' for one sub-module, 'fast' for the rest."""
    params = eqx.filter(model, eqx.is_inexact_array)
    labels = jax.tree_util.tree_map(lambda _: "fast", params)
    slow = jax.tree_util.tree_map(lambda _: "slow", getattr(params, slow_part))
    return eqx.tree_at(lambda t: getattr(t, slow_part), labels, slow)
