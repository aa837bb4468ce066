# recall-case: negative
# rule: OPT020
# class: project-consumer
# source: https://github.com/google/trax/commit/0ebc33aa8858eda11170fe69983ded65f59563d1
# shown: runs with jax_debug_key_reuse on; the bias initialiser accepts rng but never draws from it; prints OK
# style: layer with kernel and bias initialisers sharing a signature (shape, rng)
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def glorot_normal(shape, rng):
    return jnp.sqrt(2.0 / (shape[0] + shape[1])) * jax.random.normal(rng, shape)


def zeros_init(shape, rng):
    del rng  # deterministic initialiser: the key is part of the interface only
    return jnp.zeros(shape)


class Dense:
    def __init__(self, features, kernel_init=glorot_normal, bias_init=zeros_init):
        self.features = features
        self.kernel_init = kernel_init
        self.bias_init = bias_init

    def init(self, in_features, rng):
        w = self.kernel_init((in_features, self.features), rng)
        b = self.bias_init((self.features,), rng)
        return w, b


if __name__ == "__main__":
    w, b = Dense(4).init(3, jax.random.key(0))
    assert w.shape == (3, 4) and bool(jnp.all(b == 0))
    print("OK")
