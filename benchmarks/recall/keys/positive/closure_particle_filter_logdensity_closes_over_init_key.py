# recall-case: positive
# rule: OPT020
# class: closure
# source: https://github.com/BasisResearch/dynestyx/commit/8fe2205d59c9da09013ad1227bfcbbc81b2e443d ("Refactor BlackJAX MCMC integration to prevent Common Random Numbers (CRN) usage": "Updated MCMC functions to ensure each step uses a fresh PRNG key"; "Added tests to verify that the BlackJAX integration does not use CRNs, ensuring independent noise for stochastic filters")
# shown: the log-density handed to the MCMC kernel is a closure over the key the model was initialised with; its particle filter draws its propagation and resampling noise from that key at every call, so every MCMC step (and every proposal) scores positions with the same filter noise: the log-likelihood estimate at a fixed position is identical on every call (`HAZARD: 5 evaluations of the particle-filter log-likelihood at one position gave one value: common random numbers across MCMC steps`), and under jax_debug_key_reuse a second (eager) call of the log-density raises KeyReuseError
# style: state-space inference integration module: a linear-Gaussian SSM, a bootstrap particle filter under jax.lax.scan, an `init_model` that builds the log-density closure, a random-walk Metropolis kernel in the BlackJAX style (init/step with an rng key), `_run_scan_kernel` scanning steps over split keys, and `run_mcmc(config, rng_key, obs)`
"""Particle-marginal Metropolis-Hastings for the noise scale of a latent random walk."""
import sys
from dataclasses import dataclass
from typing import NamedTuple

import jax
import jax.numpy as jnp
import jax.random as jr
import numpy as np


@dataclass(frozen=True)
class MCMCConfig:
    num_steps: int = 30
    num_particles: int = 64
    step_size: float = 0.2


def simulate_ssm(key, log_q, T=25, r=0.5):
    k_x, k_y = jr.split(key)
    x = jnp.cumsum(jnp.exp(log_q) * jr.normal(k_x, (T,)))
    return x + r * jr.normal(k_y, (T,))


def particle_filter_loglik(key, log_q, obs, num_particles, r=0.5):
    """Bootstrap particle filter estimate of log p(obs | log_q)."""

    def step(carry, inputs):
        particles, loglik = carry
        y, key_t = inputs
        k_prop, k_res = jr.split(key_t)
        particles = particles + jnp.exp(log_q) * jr.normal(k_prop, particles.shape)
        logw = -0.5 * ((y - particles) / r) ** 2 - jnp.log(r) - 0.5 * jnp.log(2 * jnp.pi)
        loglik = loglik + jax.scipy.special.logsumexp(logw) - jnp.log(num_particles)
        idx = jr.categorical(k_res, logw, shape=(num_particles,))
        return (particles[idx], loglik), None

    keys = jr.split(key, obs.shape[0])
    (_, loglik), _ = jax.lax.scan(step, (jnp.zeros(num_particles), 0.0), (obs, keys))
    return loglik


def init_model(rng_key, obs, config: MCMCConfig):
    """Return an initial position and the log-density of the model."""
    init_key, model_key = jr.split(rng_key)
    initial_position = jr.normal(init_key) * 0.1

    def logdensity_fn(log_q):
        log_prior = -0.5 * log_q**2
        return log_prior + particle_filter_loglik(model_key, log_q, obs, config.num_particles)  # expect

    return initial_position, logdensity_fn


class RMHState(NamedTuple):
    position: jnp.ndarray
    logdensity: jnp.ndarray


def rmh(logdensity_fn, step_size):
    def init(position):
        return RMHState(position, logdensity_fn(position))  # expect

    def step(rng_key, state):
        k_move, k_accept = jr.split(rng_key)
        proposal = state.position + step_size * jr.normal(k_move)
        proposal_logdensity = logdensity_fn(proposal)  # expect
        accept = jnp.log(jr.uniform(k_accept)) < proposal_logdensity - state.logdensity
        new = RMHState(jnp.where(accept, proposal, state.position),
                       jnp.where(accept, proposal_logdensity, state.logdensity))
        return new, accept

    return init, step


def _run_scan_kernel(rng_key, kernel, initial_state, num_steps):
    @jax.jit
    def one_step(state, key):
        state, accepted = kernel(key, state)
        return state, (state.position, accepted)

    keys = jr.split(rng_key, num_steps)
    _, (positions, accepted) = jax.lax.scan(one_step, initial_state, keys)
    return positions, accepted


def run_mcmc(config: MCMCConfig, rng_key, obs):
    rng_key, model_key, mcmc_key = jr.split(rng_key, 3)
    initial_position, logdensity_fn = init_model(model_key, obs, config)
    init, step = rmh(logdensity_fn, config.step_size)
    positions, accepted = _run_scan_kernel(mcmc_key, step, init(initial_position), config.num_steps)
    return positions, accepted, logdensity_fn


if __name__ == "__main__":
    config = MCMCConfig()
    obs = simulate_ssm(jr.PRNGKey(42), jnp.log(0.3))
    positions, accepted, logdensity_fn = run_mcmc(config, jr.PRNGKey(0), obs)
    print(f"posterior mean log_q {float(positions.mean()):.3f}, acceptance {float(accepted.mean()):.2f}")
    estimates = np.array([float(logdensity_fn(jnp.log(0.3))) for _ in range(5)])
    if np.all(estimates == estimates[0]):
        print("HAZARD: 5 evaluations of the particle-filter log-likelihood at one position gave one value: "
              "common random numbers across MCMC steps")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        # two evaluations, as two MCMC steps make them (eager, so the checker sees each call)
        _, checked_logdensity = init_model(jr.key(1), obs, config)
        checked_logdensity(jnp.log(0.3))
        checked_logdensity(jnp.log(0.4))
    except jax.errors.KeyReuseError as err:
        print(f"HAZARD: KeyReuseError: {str(err).splitlines()[0]}")
        sys.exit(0)
    print("no KeyReuseError")
