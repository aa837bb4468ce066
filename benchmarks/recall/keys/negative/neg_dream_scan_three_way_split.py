# recall-case: negative
# rule: OPT020
# class: loop
# source: https://github.com/SlopDotCash/asi/pull/161
# shown: runs with jax_debug_key_reuse on; each dream splits its carried key three ways and seeds the rollout with the dedicated third key, so no dream's anchor noise repeats an earlier action noise; prints OK
# style: model-based RL "dreaming" loop: lax.scan over dreams, each dream runs a short imagined rollout with a behavior-policy state that holds its own rng
from typing import NamedTuple

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)

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
    key, candidate_key, rollout_key = jax.random.split(key, 3)
    anchor_noise = jax.random.normal(candidate_key, (OBS,))
    anchor = 0.5 * anchor_noise
    behavior = BehaviorState(rng_key=rollout_key, weights=weights)
    behavior, action, first_noise = sample_action(behavior, anchor)
    imagined = world_model(anchor, action)
    weights = weights + 0.01 * jnp.outer(imagined, anchor)
    return (key, weights), (anchor_noise, first_noise)


def dream(key, weights, n_dreams=5):
    (_, weights), (anchor_noise, first_noise) = jax.lax.scan(
        dream_step, (key, weights), None, length=n_dreams)
    return weights, anchor_noise, first_noise


if __name__ == "__main__":
    weights, anchors, firsts = jax.jit(dream)(jax.random.key(7), jnp.eye(OBS) * 0.1)
    assert not any(bool(jnp.all(anchors[i + 1] == firsts[i])) for i in range(anchors.shape[0] - 1))
    print("OK")
