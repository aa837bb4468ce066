# recall-case: negative
# rule: OPT020
# class: basic
# source: https://github.com/p-doom/jasmine/pull/214
# shown: runs with jax_debug_key_reuse on for both settings; exactly one branch draws from the key; prints OK
# style: configurable noise augmentation with an if/else on the noise kind
from dataclasses import dataclass

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


@dataclass(frozen=True)
class NoiseConfig:
    kind: str = "gaussian"
    scale: float = 0.1


def add_noise(config, x, key):
    if config.kind == "gaussian":
        noise = jax.random.normal(key, x.shape)
    else:
        noise = jax.random.uniform(key, x.shape, minval=-1.0, maxval=1.0)
    return x + config.scale * noise


if __name__ == "__main__":
    x = jnp.zeros(4)
    a = add_noise(NoiseConfig("gaussian"), x, jax.random.key(0))
    b = add_noise(NoiseConfig("uniform"), x, jax.random.key(1))
    assert a.shape == b.shape == (4,)
    print("OK")
