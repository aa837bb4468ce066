# recall-case: negative
# rule: OPT020
# class: other-library
# source: https://github.com/markean/aimz/pull/280
# shown: runs with jax_debug_key_reuse on; the loader advances its JAX key each epoch before seeding NumPy; epoch permutations differ; prints OK
# style: array loader shuffling on the host
import jax
import numpy as np

jax.config.update("jax_debug_key_reuse", True)


class ArrayLoader:
    def __init__(self, n, *, key):
        self.n = n
        self.key = key

    def epoch_order(self):
        self.key, epoch_key = jax.random.split(self.key)
        seed = np.asarray(jax.random.key_data(epoch_key))
        return np.random.default_rng(seed).permutation(self.n)


if __name__ == "__main__":
    loader = ArrayLoader(10, key=jax.random.key(0))
    assert not np.array_equal(loader.epoch_order(), loader.epoch_order())
    print("OK")
