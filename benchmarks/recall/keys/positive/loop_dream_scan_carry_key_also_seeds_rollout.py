# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/SlopDotCash/asi/issues/160
# source: https://github.com/SlopDotCash/asi/pull/161
# shown: dream i+1's candidate anchor noise is bit-identical to dream i's first imagined-action noise (the post-split key seeds the rollout and is also carried to the next dream)
# style: model-based RL "dreaming" loop: lax.scan over dreams, each dream runs a short imagined rollout with a behavior-policy state that holds its own rng
import sys
from typing import NamedTuple

import jax
import jax.numpy as jnp

OBS = 4


class BehaviorState(NamedTuple):
    rng_key: jax.Array
    weights: jax.Array


def sample_action(behavior, obs):
    rng, sample_key = jax.random.split(behavior.rng_key)
    noise = jax.random.normal(sample_key, (OBS,))
    action = jnp.tanh(behavior.weights @ obs) + 0.1 * noise
    return behavior._replace(rng_key=rng), action, noise


def world_model(obs, action):
    return 0.9 * obs + 0.1 * action


def dream_step(carry, _):
    key, weights = carry
    key, candidate_key = jax.random.split(key)
    anchor_noise = jax.random.normal(candidate_key, (OBS,))
    anchor = 0.5 * anchor_noise
    behavior = BehaviorState(rng_key=key, weights=weights)  # expect
    behavior, action, first_noise = sample_action(behavior, anchor)
    imagined = world_model(anchor, action)
    weights = weights + 0.01 * jnp.outer(imagined, anchor)
    return (key, weights), (anchor_noise, first_noise)  # expect


def dream(key, weights, n_dreams=5):
    (_, weights), (anchor_noise, first_noise) = jax.lax.scan(
        dream_step, (key, weights), None, length=n_dreams)
    return weights, anchor_noise, first_noise


if __name__ == "__main__":
    weights, anchors, firsts = jax.jit(dream)(jax.random.key(7), jnp.eye(OBS) * 0.1)
    same = [bool(jnp.all(anchors[i + 1] == firsts[i])) for i in range(anchors.shape[0] - 1)]
    print("anchor of dream i+1 == first action noise of dream i:", same)
    if all(same):
        print("HAZARD: every dream's candidate anchor reuses the previous dream's action noise:", anchors[1])
        sys.exit(1)
