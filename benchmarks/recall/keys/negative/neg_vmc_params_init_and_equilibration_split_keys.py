# recall-case: negative
# rule: OPT020
# class: project-consumer
# source: https://github.com/deepqmc/deepqmc/commit/299f4c4a47cb9a55a8d12c870f5b2168bb5f35e1 (the fix: `rng, rng_init, rng_eq = jax.random.split(rng, 3)`, `init_wf_params(rng_init, ...)`, `equilibrate(rng_eq, ...)`)
# shown: the equilibration keys differ from the ansatz-init key, and JAX's key-reuse checker stays silent with a typed key (OK)
# style: variational Monte Carlo driver: a Haiku-transformed wave function, project helpers that take the rng (init, Metropolis equilibration over hk.PRNGSequence), a train() entry point
"""A tiny VMC driver: initialise a Haiku wave function, then equilibrate the walkers."""
import sys

import haiku as hk
import jax
import jax.numpy as jnp


def log_psi(r):
    mlp = hk.nets.MLP([16, 1], activation=jnp.tanh)
    return mlp(r).squeeze(-1) - jnp.sum(r**2, axis=-1)


ansatz = hk.without_apply_rng(hk.transform(log_psi))


def init_sample(rng, n):
    return jax.random.normal(rng, (n, 3))


def init_wf_params(rng, n_walkers):
    rng_sample, rng_params = jax.random.split(rng)
    r = init_sample(rng_sample, n_walkers)
    return ansatz.init(rng_params, r[0]), rng_params


@jax.jit
def metropolis_step(rng, params, r):
    rng_prop, rng_acc = jax.random.split(rng)
    r_new = r + 0.3 * jax.random.normal(rng_prop, r.shape)
    log_ratio = 2 * (ansatz.apply(params, r_new) - ansatz.apply(params, r))
    accept = jnp.log(jax.random.uniform(rng_acc, log_ratio.shape)) < log_ratio
    return jnp.where(accept[:, None], r_new, r)


def equilibrate(rng, params, r, steps):
    used = []
    for _, step_rng in zip(range(steps), hk.PRNGSequence(rng)):
        used.append(step_rng)
        r = metropolis_step(step_rng, params, r)
    return r, used


def train(seed, n_walkers=64, eq_steps=5):
    rng = jax.random.key(seed)
    rng, rng_init, rng_eq = jax.random.split(rng, 3)
    params, params_key = init_wf_params(rng_init, n_walkers)
    r0 = jnp.zeros((n_walkers, 3))
    r, used = equilibrate(rng_eq, params, r0, eq_steps)
    return params_key, used, r


def main() -> None:
    params_key, used, r = train(0)
    print("walkers spread:", float(r.std()))
    same = [bool(jnp.array_equal(jax.random.key_data(k), jax.random.key_data(params_key))) for k in used]
    if any(same):
        print("equilibration reused the ansatz-init key")
        sys.exit(1)
    jax.config.update("jax_debug_key_reuse", True)
    train(1)
    print("OK")


if __name__ == "__main__":
    main()
