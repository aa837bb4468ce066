# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/google/trax/commit/0ebc33aa8858eda11170fe69983ded65f59563d1
# shown: KeyReuseError under jax_debug_key_reuse (two eqx.nn layers built from one key)
# style: Equinox CNN stem and head built in __init__
import sys

import equinox as eqx
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class TinyCNN(eqx.Module):
    conv: eqx.nn.Conv2d
    head: eqx.nn.Linear

    def __init__(self, channels, classes, *, key):
        conv_key, head_key = jax.random.split(key)
        self.conv = eqx.nn.Conv2d(1, channels, 3, padding=1, key=conv_key)  # expect
        self.head = eqx.nn.Linear(channels, classes, key=conv_key)  # expect

    def __call__(self, image):
        features = jax.nn.relu(self.conv(image))
        return self.head(features.mean(axis=(1, 2)))


if __name__ == "__main__":
    try:
        model = TinyCNN(4, 3, key=jax.random.key(1))
        print(model(jnp.ones((1, 5, 5))))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
