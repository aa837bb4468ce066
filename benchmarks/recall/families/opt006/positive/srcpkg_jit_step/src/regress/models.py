import jax
import equinox as eqx


def make_model(key, depth=2, width=16):
    return eqx.nn.MLP(in_size=3, out_size=1, width_size=width, depth=depth, activation=jax.nn.softplus, key=key)
