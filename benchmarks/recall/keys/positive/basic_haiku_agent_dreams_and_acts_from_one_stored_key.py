# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/SlopDotCash/asi/pull/2402
# shown: the imagined (dream) action and the next real exploratory action are bit-identical: both start from jax.random.split(stored_key, 3), then KeyReuseError under jax_debug_key_reuse
# style: Haiku policy (hk.transform, apply(params, rng, obs)) inside an agent that keeps its key in a NamedTuple state
import sys
from typing import NamedTuple

import haiku as hk
import jax
import jax.numpy as jnp

N_ACTIONS = 6


def policy_fn(obs):
    logits = hk.nets.MLP([16, N_ACTIONS])(obs)
    noise = 0.5 * jax.random.gumbel(hk.next_rng_key(), logits.shape)
    return jnp.argmax(logits + noise), noise


policy = hk.transform(policy_fn)


class AgentState(NamedTuple):
    params: hk.Params
    rng_key: jax.Array


def run_dreams(state, obs):
    _, sample_key, noise_key = jax.random.split(state.rng_key, 3)  # expect
    action, noise = policy.apply(state.params, sample_key, obs)
    eps = jax.random.uniform(noise_key)
    return action, noise, eps


def act(state, obs):
    next_key, explore_key, noise_key = jax.random.split(state.rng_key, 3)  # expect
    action, noise = policy.apply(state.params, explore_key, obs)
    eps = jax.random.uniform(noise_key)
    return state._replace(rng_key=next_key), action, noise, eps


def agent_step(state, obs):
    dream_action, dream_noise, dream_eps = run_dreams(state, obs)
    state, action, noise, eps = act(state, obs)
    return state, (dream_noise, dream_eps), (noise, eps)


if __name__ == "__main__":
    obs = jnp.linspace(-1.0, 1.0, 5)
    params = policy.init(jax.random.key(1), obs)
    state = AgentState(params=params, rng_key=jax.random.key(5474))
    _, dream, real = agent_step(state, obs)
    print("dream noise", dream[0][:3], "real noise", real[0][:3])
    if bool(jnp.all(dream[0] == real[0])) and bool(dream[1] == real[1]):
        print("HAZARD: the dream's sampling noise and epsilon equal the next real action's:", float(real[1]))
    jax.config.update("jax_debug_key_reuse", True)
    try:
        agent_step(AgentState(params=params, rng_key=jax.random.key(5474)), obs)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
