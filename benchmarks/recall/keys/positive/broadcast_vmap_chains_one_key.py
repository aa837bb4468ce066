# recall-case: positive
# rule: OPT020
# class: broadcast
# source: https://github.com/pyro-ppl/numpyro/commit/ce141fbd13d31a8f2e19e835ca9ad6559322d347
# shown: 4 chains started at the same point produce identical samples: each gets the same proposal noise
# style: random-walk Metropolis chains written with lax.scan, vmapped over chains with in_axes=(0, None)
import sys

import jax
import jax.numpy as jnp


def log_prob(x):
    return -0.5 * jnp.sum(x ** 2)


def run_chain(init_position, rng_key, num_samples=20, step_size=0.5):
    def step(position, key):
        k_prop, k_accept = jax.random.split(key)
        proposal = position + step_size * jax.random.normal(k_prop, position.shape)
        accept = jnp.log(jax.random.uniform(k_accept)) < log_prob(proposal) - log_prob(position)
        position = jnp.where(accept, proposal, position)
        return position, position

    keys = jax.random.split(rng_key, num_samples)
    _, samples = jax.lax.scan(step, init_position, keys)
    return samples


def run_chains(init_positions, rng_key):
    return jax.vmap(run_chain, in_axes=(0, None))(init_positions, rng_key)  # expect


if __name__ == "__main__":
    init = jnp.zeros((4, 2))
    samples = run_chains(init, jax.random.key(0))
    if bool(jnp.all(samples == samples[0])):
        print("HAZARD: all 4 chains produced identical samples from one broadcast key")
        sys.exit(1)
    print("chains differ")
