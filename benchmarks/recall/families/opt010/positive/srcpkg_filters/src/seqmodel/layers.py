import jax
import equinox as eqx


class FeedForward(eqx.Module):
    up: eqx.nn.Linear
    down: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, dim, hidden, rate, key):
        k1, k2 = jax.random.split(key)
        self.up = eqx.nn.Linear(dim, hidden, key=k1)
        self.down = eqx.nn.Linear(hidden, dim, key=k2)
        self.dropout = eqx.nn.Dropout(rate)

    def __call__(self, x, key):
        return self.down(self.dropout(jax.nn.gelu(self.up(x)), key=key))
