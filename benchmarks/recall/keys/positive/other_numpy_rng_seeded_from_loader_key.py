# recall-case: positive
# rule: OPT020
# class: other-library
# source: https://github.com/markean/aimz/issues/279
# source: https://github.com/markean/aimz/pull/280
# shown: NumPy generators seeded from the same JAX key bits give the same shuffle in epoch 0 and epoch 1 (identical permutations)
# style: array loader class that shuffles on the host with numpy default_rng seeded from a JAX key
import sys

import jax
import jax.numpy as jnp
import numpy as np


class ArrayLoader:
    def __init__(self, x, batch_size, *, key):
        self.x = np.asarray(x)
        self.batch_size = batch_size
        self.key = key

    def _host_rng(self):
        return np.random.default_rng(np.asarray(jax.random.key_data(self.key)))

    def epoch(self):
        perm = self._host_rng().permutation(len(self.x))  # expect
        for start in range(0, len(self.x), self.batch_size):
            yield self.x[perm[start:start + self.batch_size]], perm


def run(loader, epochs):
    orders = []
    for _ in range(epochs):
        order = None
        for _, perm in loader.epoch():  # expect
            order = perm
        orders.append(order)
    return orders


if __name__ == "__main__":
    loader = ArrayLoader(jnp.arange(10.0), 5, key=jax.random.key(0))
    first, second = run(loader, 2)
    if np.array_equal(first, second):
        print("HAZARD: epoch 0 and epoch 1 used the same permutation:", first)
        sys.exit(1)
    print("permutations differ")
