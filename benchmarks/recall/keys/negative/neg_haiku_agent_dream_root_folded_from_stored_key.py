# recall-case: negative
# rule: OPT020
# class: fold-in-split
# source: https://github.com/SlopDotCash/asi/pull/2402
# shown: runs with jax_debug_key_reuse on; the dreams derive their own root with fold_in(stored_key, 0x44524D53), far above the 3 indices the real action's split(stored_key, 3) covers, so no dream branch equals a real one; prints OK
# style: Haiku policy (hk.transform, apply(params, rng, obs)) inside an agent that keeps its key in a NamedTuple state
from typing import NamedTuple

import haiku as hk
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)

N_ACTIONS = 6
DREAM_DOMAIN = 0x44524D53  # "DRMS": a domain tag, not a step index


def policy_fn(obs):
    logits = hk.nets.MLP([16, N_ACTIONS])(obs)
    noise = 0.5 * jax.random.gumbel(hk.next_rng_key(), logits.shape)
    return jnp.argmax(logits + noise), noise


policy = hk.transform(policy_fn)


class AgentState(NamedTuple):
    params: hk.Params
    rng_key: jax.Array


def run_dreams(state, obs):
    dream_root = jax.random.fold_in(state.rng_key, DREAM_DOMAIN)
    _, sample_key, noise_key = jax.random.split(dream_root, 3)
    action, noise = policy.apply(state.params, sample_key, obs)
    eps = jax.random.uniform(noise_key)
    return action, noise, eps


def act(state, obs):
    next_key, explore_key, noise_key = jax.random.split(state.rng_key, 3)
    action, noise = policy.apply(state.params, explore_key, obs)
    eps = jax.random.uniform(noise_key)
    return state._replace(rng_key=next_key), action, noise, eps


if __name__ == "__main__":
    obs = jnp.linspace(-1.0, 1.0, 5)
    params = policy.init(jax.random.key(1), obs)
    state = AgentState(params=params, rng_key=jax.random.key(5474))
    _, dream_noise, dream_eps = run_dreams(state, obs)
    state, _, noise, eps = act(state, obs)
    assert not bool(jnp.all(dream_noise == noise)) and bool(dream_eps != eps)
    print("OK")
