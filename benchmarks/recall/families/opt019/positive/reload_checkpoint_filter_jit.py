# recall-case: positive
# rule: OPT019
# source: https://github.com/patrick-kidger/equinox/issues/798
# source: https://github.com/patrick-kidger/equinox/pull/800
# shown: ValueError: Exception raised while checking equality of metadata fields of pytree ... (arrays cannot be passed as metadata fields) when the reloaded model enters filter_jit
# style: Equinox, normalisation statistics marked static, checkpoint saved and loaded, trainer-style helpers
import os
import tempfile

import equinox as eqx
import jax
import jax.numpy as jnp


class Normalised(eqx.Module):
    mean: jax.Array = eqx.field(static=True)  # expect
    std: jax.Array = eqx.field(static=True)
    net: eqx.nn.MLP

    def __init__(self, data, key):
        self.mean = data.mean(axis=0)
        self.std = data.std(axis=0) + 1e-6
        self.net = eqx.nn.MLP(data.shape[1], 1, 8, 1, key=key)

    def __call__(self, x):
        return self.net((x - self.mean) / self.std)


@eqx.filter_jit
def predict(model, xs):
    return jax.vmap(model)(xs)


def save(path, model):
    eqx.tree_serialise_leaves(path, model)


def load(path, data):
    skeleton = Normalised(data, jax.random.key(0))
    return eqx.tree_deserialise_leaves(path, skeleton)


if __name__ == "__main__":
    data = jax.random.normal(jax.random.key(1), (32, 3))
    model = Normalised(data, jax.random.key(2))
    print(predict(model, data[:2]).shape)
    path = os.path.join(tempfile.mkdtemp(), "model.eqx")
    save(path, model)
    restored = load(path, data)
    print(predict(restored, data[:2]))
    print("HAZARD: no error (not expected)")
