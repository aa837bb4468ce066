# recall-case: positive
# rule: OPT020
# class: closure
# source: https://github.com/apple/axlearn/commit/6c5af18ba3bd0e7c40b04fc1de5fbb4c2a3e2739
# shown: KeyReuseError under jax_debug_key_reuse; with it off, both hidden layers' kernels got the same variational noise
# style: Flax nnx model; a weight-noise regulariser adds Gaussian noise to every nnx.Param leaf with jax.tree.map
import sys

import jax
import jax.numpy as jnp
from flax import nnx


class MLP(nnx.Module):
    def __init__(self, width, *, rngs):
        self.hidden1 = nnx.Linear(width, width, rngs=rngs)
        self.hidden2 = nnx.Linear(width, width, rngs=rngs)
        self.out = nnx.Linear(width, 1, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden2(nnx.relu(self.hidden1(x)))))


class VariationalNoise:
    """Perturbs every parameter with N(0, std^2) noise before the forward pass."""

    def __init__(self, std):
        self.std = std

    def apply(self, params, prng_key):
        return jax.tree.map(
            lambda x: x + jax.random.normal(prng_key, x.shape, x.dtype) * self.std, params  # expect
        )


if __name__ == "__main__":
    model = MLP(8, rngs=nnx.Rngs(0))
    graphdef, params = nnx.split(model, nnx.Param)
    noisy = VariationalNoise(std=1.0).apply(params, jax.random.key(1))
    delta1 = noisy["hidden1"]["kernel"][...] - params["hidden1"]["kernel"][...]
    delta2 = noisy["hidden2"]["kernel"][...] - params["hidden2"]["kernel"][...]
    if bool(jnp.allclose(delta1, delta2)):
        print("HAZARD: both hidden layers' kernels got the same variational noise")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        VariationalNoise(std=1.0).apply(params, jax.random.key(2))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
