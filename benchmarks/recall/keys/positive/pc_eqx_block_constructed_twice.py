# recall-case: positive
# rule: OPT020
# class: project-consumer
# source: https://github.com/google/flax/commit/a307d4737cbccb87809b620e2d5d4c06ad1d904e
# shown: KeyReuseError under jax_debug_key_reuse; with it off, encoder and decoder blocks hold identical weights
# style: Equinox model whose __init__ builds a project-defined eqx.Module subclass twice with one key
import sys

import equinox as eqx
import jax
import jax.numpy as jnp


class ResidualBlock(eqx.Module):
    norm: eqx.nn.LayerNorm
    proj: eqx.nn.Linear

    def __init__(self, dim, *, key):
        self.norm = eqx.nn.LayerNorm(dim)
        self.proj = eqx.nn.Linear(dim, dim, key=key)

    def __call__(self, x):
        return x + jax.nn.gelu(self.proj(self.norm(x)))


class AutoEncoder(eqx.Module):
    encoder: ResidualBlock
    decoder: ResidualBlock

    def __init__(self, dim, *, key):
        self.encoder = ResidualBlock(dim, key=key)  # expect
        self.decoder = ResidualBlock(dim, key=key)  # expect

    def __call__(self, x):
        return self.decoder(self.encoder(x))


if __name__ == "__main__":
    model = AutoEncoder(4, key=jax.random.key(0))
    if bool(jnp.all(model.encoder.proj.weight == model.decoder.proj.weight)):
        print("HAZARD: encoder and decoder blocks were initialised with identical weights")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        AutoEncoder(4, key=jax.random.key(0))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
