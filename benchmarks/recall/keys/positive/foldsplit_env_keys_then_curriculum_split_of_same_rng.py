# recall-case: positive
# rule: OPT020
# class: fold-in-split
# source: https://github.com/kscalelabs/ksim/commit/fc72fb65aa7d4eba49f94b296aa89d73b07bcd29 ("better random keys (#193)": `train_rngs = jax.random.split(rng, num_envs)` and then `rng, curriculum_rng = jax.random.split(rng)` of the same rng; `split(k, 2) == split(k, n)[:2]`, so the curriculum key was env 1's key and the carried rng env 0's)
# shown: the curriculum's initial draw equals env 1's reset draw (0.6751 both; HAZARD), then KeyReuseError under jax_debug_key_reuse with a typed key (exit 1)
# style: RL task runner in plain JAX: vmapped environment resets with per-env keys, a curriculum object, a training loop carrying rng
"""Set up a vectorised walking task: env keys, curriculum, first update key."""
import sys
from typing import NamedTuple

import jax
import jax.numpy as jnp

NUM_ENVS = 4


class Curriculum(NamedTuple):
    min_level: float = 0.2

    def initial_level(self, rng):
        return self.min_level + (1 - self.min_level) * jax.random.uniform(rng, ())


def reset_env(rng):
    """Randomised initial joint offsets for one environment."""
    u = jax.random.uniform(rng, ())
    return 0.2 + 0.8 * u, u


def setup(rng, curriculum: Curriculum):
    train_rngs = jax.random.split(rng, NUM_ENVS)  # expect
    rng, curriculum_rng = jax.random.split(rng)  # expect
    level = curriculum.initial_level(curriculum_rng)
    _, env_draws = jax.vmap(reset_env)(train_rngs)
    rng, update_rng = jax.random.split(rng)
    return level, env_draws, train_rngs, update_rng, rng


def main() -> None:
    level, env_draws, train_rngs, _, carried = setup(jax.random.PRNGKey(7), Curriculum())
    curriculum_unit = (level - 0.2) / 0.8
    print("curriculum draw:", float(curriculum_unit), "env draws:", env_draws)
    if bool(jnp.isclose(curriculum_unit, env_draws[1])):
        print("HAZARD: the curriculum drew env 1's reset number")

    jax.config.update("jax_debug_key_reuse", True)
    try:
        setup(jax.random.key(8), Curriculum())
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")


if __name__ == "__main__":
    main()
