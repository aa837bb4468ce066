# recall-case: negative
# rule: OPT019
# source: https://github.com/patrick-kidger/equinox/issues/957
# shown: OK reloaded model predicts under filter_jit
# style: Equinox, normalisation statistics as ordinary fields read through stop_gradient, checkpoint reload
import os
import tempfile

import equinox as eqx
import jax
import jax.numpy as jnp


class Normalised(eqx.Module):
    mean: jax.Array
    std: jax.Array
    net: eqx.nn.MLP

    def __init__(self, data, key):
        self.mean = data.mean(axis=0)
        self.std = data.std(axis=0) + 1e-6
        self.net = eqx.nn.MLP(data.shape[1], 1, 8, 1, key=key)

    def __call__(self, x):
        mean = jax.lax.stop_gradient(self.mean)
        std = jax.lax.stop_gradient(self.std)
        return self.net((x - mean) / std)


@eqx.filter_jit
def predict(model, xs):
    return jax.vmap(model)(xs)


if __name__ == "__main__":
    data = jax.random.normal(jax.random.key(1), (32, 3))
    model = Normalised(data, jax.random.key(2))
    path = os.path.join(tempfile.mkdtemp(), "model.eqx")
    eqx.tree_serialise_leaves(path, model)
    restored = eqx.tree_deserialise_leaves(path, Normalised(data, jax.random.key(0)))
    assert jnp.allclose(predict(model, data[:2]), predict(restored, data[:2]))
    print("OK reloaded model predicts under filter_jit")
