# recall-case: negative
# rule: OPT020
# class: fold-in-split
# source: https://github.com/kscalelabs/ksim/commit/fc72fb65aa7d4eba49f94b296aa89d73b07bcd29 (the fix: one `split(rng, 6)` into rng, curriculum_rng, rand_rng, rollout_rng, command_rng, carry_rng, and the per-env keys split from their own parent)
# shown: the curriculum, the env resets and the update each get a key of their own; no draw coincides and JAX's key-reuse checker stays silent with a typed key; prints OK
# style: RL task runner in plain JAX: vmapped environment resets with per-env keys, a curriculum object, a training loop carrying rng
"""Set up a vectorised walking task with one key per purpose."""
from typing import NamedTuple

import jax
import jax.numpy as jnp

NUM_ENVS = 4


class Curriculum(NamedTuple):
    min_level: float = 0.2

    def initial_level(self, rng):
        return self.min_level + (1 - self.min_level) * jax.random.uniform(rng, ())


def reset_env(rng):
    u = jax.random.uniform(rng, ())
    return 0.2 + 0.8 * u, u


def setup(rng, curriculum: Curriculum):
    rng, curriculum_rng, reset_rng = jax.random.split(rng, 3)
    train_rngs = jax.random.split(reset_rng, NUM_ENVS)
    level = curriculum.initial_level(curriculum_rng)
    _, env_draws = jax.vmap(reset_env)(train_rngs)
    rng, update_rng = jax.random.split(rng)
    return level, env_draws, update_rng, rng


def main() -> None:
    level, env_draws, _, _ = setup(jax.random.PRNGKey(7), Curriculum())
    assert not bool(jnp.any(jnp.isclose((level - 0.2) / 0.8, env_draws)))
    jax.config.update("jax_debug_key_reuse", True)
    setup(jax.random.key(8), Curriculum())
    print("OK")


if __name__ == "__main__":
    main()
