# recall-case: positive
# rule: OPT020
# class: closure
# source: https://github.com/stanford-crfm/levanter/commit/5fdf6fc5216a7b285fac29b9897261b3d1800b59
# shown: KeyReuseError under jax_debug_key_reuse (every checkpointed stage runs the last block with the last key)
# style: Equinox transformer whose gradient-checkpointed path builds one lambda per block in a list comprehension
import sys

import equinox as eqx
import jax
import jax.numpy as jnp


class Block(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, dim, *, key):
        self.linear = eqx.nn.Linear(dim, dim, key=key)
        self.dropout = eqx.nn.Dropout(p=0.5)

    def __call__(self, x, *, inference, key):
        return x + self.dropout(jax.nn.gelu(self.linear(x)), inference=inference, key=key)


def sequential_checkpoint(stages):
    def run(x):
        for stage in stages:
            x = jax.checkpoint(stage)(x)
        return x

    return run


class Transformer(eqx.Module):
    blocks: list
    checkpointed: bool = eqx.field(static=True)

    def __init__(self, dim, depth, checkpointed, *, key):
        self.blocks = [Block(dim, key=k) for k in jax.random.split(key, depth)]
        self.checkpointed = checkpointed

    def __call__(self, x, *, inference, key):
        keys = jax.random.split(key, len(self.blocks))
        if not self.checkpointed:
            for block, block_key in zip(self.blocks, keys):
                x = block(x, inference=inference, key=block_key)
            return x
        stages = [lambda h: block(h, inference=inference, key=block_key) for block, block_key in zip(self.blocks, keys)]  # expect
        return sequential_checkpoint(stages)(x)


if __name__ == "__main__":
    jax.config.update("jax_debug_key_reuse", True)
    model = Transformer(8, 3, checkpointed=True, key=jax.random.key(0))
    x = jnp.ones(8)
    try:
        model(x, inference=False, key=jax.random.key(1))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
