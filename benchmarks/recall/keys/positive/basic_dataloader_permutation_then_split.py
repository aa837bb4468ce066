# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/patrick-kidger/equinox/commit/e9067186d5eb56b89503ace4a13664e1de556bfa
# shown: KeyReuseError under jax_debug_key_reuse: the key given to permutation is split right after
# style: infinite generator dataloader feeding a small training loop
import sys

import jax
import jax.numpy as jnp
import jax.random as jr

jax.config.update("jax_debug_key_reuse", True)


def dataloader(arrays, batch_size, *, key):
    dataset_size = arrays[0].shape[0]
    indices = jnp.arange(dataset_size)
    while True:
        perm = jr.permutation(key, indices)  # expect
        (key,) = jr.split(key, 1)  # expect
        start = 0
        while start + batch_size <= dataset_size:
            batch = perm[start:start + batch_size]
            yield tuple(array[batch] for array in arrays)
            start += batch_size


def fit(xs, ys, steps, *, key):
    w = jnp.zeros(xs.shape[1])
    for _, (x, y) in zip(range(steps), dataloader((xs, ys), 4, key=key)):
        grad = jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
        w = w - 0.1 * grad
    return w


if __name__ == "__main__":
    xs = jnp.linspace(0.0, 1.0, 32).reshape(16, 2)
    ys = xs.sum(axis=1)
    try:
        fit(xs, ys, steps=6, key=jr.key(5678))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
