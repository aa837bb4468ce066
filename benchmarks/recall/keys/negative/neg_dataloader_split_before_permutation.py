# recall-case: negative
# rule: OPT020
# class: basic
# source: https://github.com/patrick-kidger/equinox/commit/e9067186d5eb56b89503ace4a13664e1de556bfa
# shown: runs with jax_debug_key_reuse on; the loader splits first and permutes with the subkey; epochs differ; prints OK
# style: infinite generator dataloader (the fixed version)
import jax
import jax.numpy as jnp
import jax.random as jr

jax.config.update("jax_debug_key_reuse", True)


def dataloader(data, batch_size, *, key):
    n = data.shape[0]
    indices = jnp.arange(n)
    while True:
        key, subkey = jr.split(key, 2)
        perm = jr.permutation(subkey, indices)
        for start in range(0, n - batch_size + 1, batch_size):
            yield perm[start:start + batch_size]


if __name__ == "__main__":
    loader = dataloader(jnp.arange(8.0), 8, key=jr.key(5678))
    first, second = next(loader), next(loader)
    assert not bool(jnp.all(first == second))
    print("OK")
