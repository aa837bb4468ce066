# recall-case: negative
# rule: OPT020
# class: closure
# source: https://github.com/BasisResearch/dynestyx/commit/8fe2205d59c9da09013ad1227bfcbbc81b2e443d (the fix: "a key-aware potential function"; "`_run_chain_scan` ... passing a fresh density key to each" step)
# shown: the log-density takes the particle-filter key as an argument; the scan splits the chain key into one MCMC key and one density key per step and `make_step(density_key)` closes over the step's own key, used once for the proposal's estimate (the current state's estimate is kept from its own step); estimates at a fixed position differ between keys and with typed keys under jax_debug_key_reuse the whole chain raises nothing; prints OK
# style: state-space inference integration module: a linear-Gaussian SSM, a bootstrap particle filter under jax.lax.scan, an `init_model` that builds the log-density, a random-walk Metropolis kernel in the BlackJAX style (init/step with an rng key), a chain scan that feeds a fresh density key to every step, and `run_mcmc(config, rng_key, obs)`
"""Particle-marginal Metropolis-Hastings for the noise scale of a latent random walk."""
from dataclasses import dataclass
from typing import NamedTuple

import jax
import jax.numpy as jnp
import jax.random as jr


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
    """Return an initial position and a key-aware log-density of the model."""
    initial_position = jr.normal(rng_key) * 0.1

    def logdensity_fn(log_q, density_key):
        log_prior = -0.5 * log_q**2
        return log_prior + particle_filter_loglik(density_key, log_q, obs, config.num_particles)

    return initial_position, logdensity_fn


class RMHState(NamedTuple):
    position: jnp.ndarray
    logdensity: jnp.ndarray


def rmh(logdensity_fn, step_size):
    def init(position, density_key):
        return RMHState(position, logdensity_fn(position, density_key))

    def step(rng_key, state):
        k_move, k_accept = jr.split(rng_key)
        proposal = state.position + step_size * jr.normal(k_move)
        proposal_logdensity = logdensity_fn(proposal)
        accept = jnp.log(jr.uniform(k_accept)) < proposal_logdensity - state.logdensity
        new = RMHState(jnp.where(accept, proposal, state.position),
                       jnp.where(accept, proposal_logdensity, state.logdensity))
        return new, accept

    return init, step


def _run_chain_scan(rng_key, make_step, initial_state, num_steps):
    """Scan ``num_steps`` MCMC steps, passing a fresh density key to each."""

    def one_step(state, keys):
        mcmc_key, density_key = keys
        state, accepted = make_step(density_key)(mcmc_key, state)
        return state, (state.position, accepted)

    key_mcmc, key_density = jr.split(rng_key)
    _, (positions, accepted) = jax.lax.scan(
        one_step, initial_state, (jr.split(key_mcmc, num_steps), jr.split(key_density, num_steps))
    )
    return positions, accepted


def run_mcmc(config: MCMCConfig, rng_key, obs):
    model_key, init_density_key, mcmc_key = jr.split(rng_key, 3)
    initial_position, logdensity_fn = init_model(model_key, obs, config)

    def make_step(density_key):
        _, step = rmh(lambda q: logdensity_fn(q, density_key), config.step_size)
        return step

    init, _ = rmh(logdensity_fn, config.step_size)
    initial_state = init(initial_position, init_density_key)
    positions, accepted = jax.jit(_run_chain_scan, static_argnums=(1, 3))(
        mcmc_key, make_step, initial_state, config.num_steps)
    return positions, accepted, logdensity_fn


if __name__ == "__main__":
    config = MCMCConfig()
    obs = simulate_ssm(jr.PRNGKey(42), jnp.log(0.3))
    positions, accepted, logdensity_fn = run_mcmc(config, jr.PRNGKey(0), obs)
    print(f"posterior mean log_q {float(positions.mean()):.3f}, acceptance {float(accepted.mean()):.2f}")
    estimates = [float(logdensity_fn(jnp.log(0.3), k)) for k in jr.split(jr.PRNGKey(7), 5)]
    assert len(set(estimates)) == 5
    jax.config.update("jax_debug_key_reuse", True)
    run_mcmc(config, jr.key(0), obs)
    print("OK")
