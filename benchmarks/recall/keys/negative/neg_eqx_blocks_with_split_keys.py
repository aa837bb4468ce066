# recall-case: negative
# rule: OPT020
# class: project-consumer
# source: https://github.com/google/flax/commit/a307d4737cbccb87809b620e2d5d4c06ad1d904e
# shown: runs with jax_debug_key_reuse on; encoder and decoder blocks get distinct keys and distinct weights; prints OK
# style: Equinox model constructing a project-defined block twice
import equinox as eqx
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class ResidualBlock(eqx.Module):
    proj: eqx.nn.Linear

    def __init__(self, dim, *, key):
        self.proj = eqx.nn.Linear(dim, dim, key=key)

    def __call__(self, x):
        return x + jax.nn.gelu(self.proj(x))


class AutoEncoder(eqx.Module):
    encoder: ResidualBlock
    decoder: ResidualBlock

    def __init__(self, dim, *, key):
        enc_key, dec_key = jax.random.split(key)
        self.encoder = ResidualBlock(dim, key=enc_key)
        self.decoder = ResidualBlock(dim, key=dec_key)


if __name__ == "__main__":
    model = AutoEncoder(4, key=jax.random.key(0))
    assert not bool(jnp.all(model.encoder.proj.weight == model.decoder.proj.weight))
    print("OK")
