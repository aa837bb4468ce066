# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/dunnolab/xland-minigrid/issues/42
# shown: KeyReuseError under jax_debug_key_reuse at the second split of rng (ruleset and reset keys come from one key)
# style: RL meta-training setup, per-environment keys for vmapped reset
import sys

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)

NUM_ENVS = 4


def sample_ruleset(key):
    return jax.random.randint(key, (3,), 0, 10)


def reset_env(key, ruleset):
    return jax.random.uniform(key, (2,)) + ruleset[0]


def make_initial_batch(rng):
    rng, _rng1, _rng2 = jax.random.split(rng, num=3)
    ruleset_rng = jax.random.split(rng, num=NUM_ENVS)  # expect
    reset_rng = jax.random.split(rng, num=NUM_ENVS)  # expect
    rulesets = jax.vmap(sample_ruleset)(ruleset_rng)
    observations = jax.vmap(reset_env)(reset_rng, rulesets)
    return rulesets, observations


if __name__ == "__main__":
    try:
        make_initial_batch(jax.random.key(42))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
