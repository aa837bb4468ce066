# recall-case: positive
# rule: OPT020
# class: fold-in-split
# source: https://github.com/blackjax-devs/blackjax/pull/656
# shown: the key of step i equals the init key of chain i (fold_in(k, i) == split(k, n)[i]): identical draws
# style: sampler driver: split for chain initialisation, fold_in(step) inside the loop
import sys

import jax
import jax.numpy as jnp


def init_positions(rng_key, num_chains, dim):
    keys = jax.random.split(rng_key, num_chains)  # expect
    return jax.vmap(lambda k: jax.random.normal(k, (dim,)))(keys)


def run(rng_key, num_chains=4, num_steps=4, dim=2):
    initial = init_positions(rng_key, num_chains, dim)
    positions = initial
    step_noise = []
    for step in range(num_steps):
        step_key = jax.random.fold_in(rng_key, step)  # expect
        step_noise.append(jax.random.normal(step_key, (dim,)))
        positions = positions + 0.1 * step_noise[-1]
    return initial, jnp.stack(step_noise)


if __name__ == "__main__":
    inits, noise = run(jax.random.key(0))
    if bool(jnp.all(inits == noise)):
        print("HAZARD: the noise of step i equals the initial position of chain i for every i")
        sys.exit(1)
    print("independent")
