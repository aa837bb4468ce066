import jax


def matrices_only(params):
    """Decay matrices, leave vectors (biases, norms) alone."""
    return jax.tree_util.tree_map(lambda x: x.ndim >= 2, params)
