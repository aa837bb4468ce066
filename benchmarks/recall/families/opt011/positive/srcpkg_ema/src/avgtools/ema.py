import jax
import equinox as eqx


def init_ema(model):
    return eqx.filter(model, eqx.is_array)


def update_ema(ema, model, decay=0.999):
    return jax.tree_util.tree_map(lambda e, p: decay * e + (1.0 - decay) * p, ema, eqx.filter(model, eqx.is_array))
