# recall-case: negative
# rule: OPT020
# class: closure
# source: https://github.com/apple/axlearn/commit/6c5af18ba3bd0e7c40b04fc1de5fbb4c2a3e2739
# shown: runs with jax_debug_key_reuse on; one key is split per parameter leaf, so the two hidden kernels get different noise; prints OK
# style: Flax nnx model; a weight-noise regulariser adds Gaussian noise to every nnx.Param leaf
import jax
import jax.numpy as jnp
from flax import nnx

jax.config.update("jax_debug_key_reuse", True)


class MLP(nnx.Module):
    def __init__(self, width, *, rngs):
        self.hidden1 = nnx.Linear(width, width, rngs=rngs)
        self.hidden2 = nnx.Linear(width, width, rngs=rngs)
        self.out = nnx.Linear(width, 1, rngs=rngs)

    def __call__(self, x):
        return self.out(nnx.relu(self.hidden2(nnx.relu(self.hidden1(x)))))


class VariationalNoise:
    """Perturbs every parameter with independent N(0, std^2) noise before the forward pass."""

    def __init__(self, std):
        self.std = std

    def apply(self, params, prng_key):
        leaves, treedef = jax.tree.flatten(params)
        keys = jax.random.split(prng_key, len(leaves))
        noisy = [x + jax.random.normal(k, x.shape, x.dtype) * self.std for x, k in zip(leaves, keys)]
        return jax.tree.unflatten(treedef, noisy)


if __name__ == "__main__":
    model = MLP(8, rngs=nnx.Rngs(0))
    graphdef, params = nnx.split(model, nnx.Param)
    noisy = VariationalNoise(std=1.0).apply(params, jax.random.key(1))
    delta1 = noisy["hidden1"]["kernel"][...] - params["hidden1"]["kernel"][...]
    delta2 = noisy["hidden2"]["kernel"][...] - params["hidden2"]["kernel"][...]
    assert not bool(jnp.allclose(delta1, delta2))
    print("OK")
