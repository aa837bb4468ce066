import jax
import equinox as eqx


class Tower(eqx.Module):
    embed: eqx.nn.Linear
    body: eqx.nn.MLP

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.embed = eqx.nn.Linear(3, 5, key=k1)
        self.body = eqx.nn.MLP(5, 1, 5, 1, key=k2)

    def __call__(self, x):
        return self.body(self.embed(x))
