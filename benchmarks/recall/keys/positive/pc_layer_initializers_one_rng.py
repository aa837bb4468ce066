# recall-case: positive
# rule: OPT020
# class: project-consumer
# source: https://github.com/google/trax/commit/0ebc33aa8858eda11170fe69983ded65f59563d1
# shown: KeyReuseError under jax_debug_key_reuse: project initialiser functions both draw from one rng
# style: hand-written layer class with init_weights(rng), project-defined initialisers
import sys

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


def glorot_normal(shape, rng):
    fan_in, fan_out = shape[-2], shape[-1]
    std = jnp.sqrt(2.0 / (fan_in + fan_out))
    return std * jax.random.normal(rng, shape)


def small_normal(shape, rng, stddev=1e-2):
    return stddev * jax.random.normal(rng, shape)


class Conv1D:
    def __init__(self, filters, kernel_size, kernel_initializer=glorot_normal,
                 bias_initializer=small_normal):
        self.filters = filters
        self.kernel_size = kernel_size
        self.kernel_initializer = kernel_initializer
        self.bias_initializer = bias_initializer

    def init_weights(self, input_channels, rng):
        kernel_shape = (self.kernel_size, input_channels, self.filters)
        w = self.kernel_initializer(kernel_shape, rng)  # expect
        b = self.bias_initializer((self.filters,), rng)  # expect
        return w, b

    def __call__(self, weights, x):
        w, b = weights
        return jax.lax.conv_general_dilated(
            x[None], w, (1,), "SAME", dimension_numbers=("NWC", "WIO", "NWC"))[0] + b


if __name__ == "__main__":
    layer = Conv1D(filters=4, kernel_size=3)
    try:
        weights = layer.init_weights(2, jax.random.key(0))
        print(layer(weights, jnp.ones((6, 2))).shape)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
