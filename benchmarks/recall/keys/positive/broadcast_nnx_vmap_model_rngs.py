# recall-case: positive
# rule: OPT020
# class: broadcast
# source: https://github.com/google/flax/issues/4195
# shown: nnx.vmap with the model broadcast (in_axes None) applies one dropout mask to every batch element
# style: Flax NNX model with Dropout, per-example inference under nnx.vmap
import sys

import jax.numpy as jnp
from flax import nnx


class Encoder(nnx.Module):
    def __init__(self, rngs: nnx.Rngs):
        self.linear = nnx.Linear(4, 12, rngs=rngs)
        self.dropout = nnx.Dropout(0.5, rngs=rngs)

    def __call__(self, x):
        return self.dropout(nnx.relu(self.linear(x)) + 1.0)


def encode(model, x):
    return model(x)


def encode_batch(model, xs):
    return nnx.vmap(encode, in_axes=(None, 0))(model, xs)  # expect


if __name__ == "__main__":
    model = Encoder(nnx.Rngs(0))
    ys = encode_batch(model, jnp.ones((3, 4)))
    masks = ys != 0
    if bool(jnp.all(masks == masks[0])):
        print("HAZARD: the 3 batch elements got identical dropout masks")
        sys.exit(1)
    print("masks differ")
