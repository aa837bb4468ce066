# recall-case: positive
# rule: OPT020
# class: project-consumer
# source: https://github.com/deepqmc/deepqmc/commit/299f4c4a47cb9a55a8d12c870f5b2168bb5f35e1 ("properly split rng keys": `train()` gave the one `rng = PRNGKey(seed)` to `init_wf_params(rng, ...)`, which splits it for the sample and the ansatz init, and then to `equilibrate(rng, ...)`, which iterates `hk.PRNGSequence(rng)`)
# shown: the first equilibration step walks with the very key that initialised the ansatz parameters (HAZARD), and with a typed key JAX's key-reuse checker raises KeyReuseError at the second split of `rng` (exit 1)
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
    params, params_key = init_wf_params(rng, n_walkers)  # expect
    r0 = jnp.zeros((n_walkers, 3))
    r, used = equilibrate(rng, params, r0, eq_steps)  # expect
    return params_key, used, r


def main() -> None:
    params_key, used, r = train(0)
    print("walkers spread:", float(r.std()))
    if bool(jnp.array_equal(jax.random.key_data(used[0]), jax.random.key_data(params_key))):
        print("HAZARD: the first equilibration step walked with the ansatz-init key")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        train(1)
    except Exception as err:  # jax.errors.KeyReuseError
        print("HAZARD:", type(err).__name__, str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse")


if __name__ == "__main__":
    main()
