import jax
import equinox as eqx


class GatedHead(eqx.Module):
    proj: eqx.nn.Linear
    gate: eqx.nn.Linear
    act: callable

    def __init__(self, d_in, d_out, key, act=jax.nn.gelu):
        k1, k2 = jax.random.split(key)
        self.proj = eqx.nn.Linear(d_in, d_out, key=k1)
        self.gate = eqx.nn.Linear(d_in, d_out, key=k2)
        self.act = act

    def __call__(self, x):
        return self.act(self.proj(x)) * jax.nn.sigmoid(self.gate(x))


def make_head(key):
    return GatedHead(4, 2, key)
