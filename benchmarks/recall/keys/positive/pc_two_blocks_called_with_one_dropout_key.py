# recall-case: positive
# rule: OPT020
# class: project-consumer
# source: https://github.com/google/flax/commit/6f2b08e024c2fd2f8cec42a6c82408cb35412319
# shown: KeyReuseError under jax_debug_key_reuse: both attention blocks' __call__ draw dropout from one key
# style: Equinox transformer layer, key threaded into project-defined block methods
import sys

import equinox as eqx
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class AttentionBlock(eqx.Module):
    attn: eqx.nn.MultiheadAttention
    dropout: eqx.nn.Dropout

    def __init__(self, dim, *, key):
        self.attn = eqx.nn.MultiheadAttention(2, dim, key=key)
        self.dropout = eqx.nn.Dropout(0.3)

    def __call__(self, x, context, *, key):
        return x + self.dropout(self.attn(x, context, context), key=key)


class CrossLayer(eqx.Module):
    self_attn: AttentionBlock
    cross_attn: AttentionBlock

    def __init__(self, dim, *, key):
        k1, k2 = jax.random.split(key)
        self.self_attn = AttentionBlock(dim, key=k1)
        self.cross_attn = AttentionBlock(dim, key=k2)

    def __call__(self, x, memory, *, dropout_rng):
        h = self.self_attn(x, x, key=dropout_rng)  # expect
        return self.cross_attn(h, memory, key=dropout_rng)  # expect


if __name__ == "__main__":
    init_key, drop_key = jax.random.split(jax.random.key(0))
    layer = CrossLayer(4, key=init_key)
    try:
        print(layer(jnp.ones((3, 4)), jnp.ones((5, 4)), dropout_rng=drop_key).shape)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
