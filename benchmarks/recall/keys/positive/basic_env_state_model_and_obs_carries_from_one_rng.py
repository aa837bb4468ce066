# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/kscalelabs/ksim/commit/9e0421b348a55f309fde447c3b9371b4793a1510
# shown: each env's initial model carry and initial observation carry are drawn from the same per-env key (split(carry_rng, num_envs) twice): the actuator-latency draw equals the first entries of the policy's initial hidden noise, then KeyReuseError under jax_debug_key_reuse
# style: RL task class for a legged robot: initial rollout env state built from a seven-way split, vmapped initial-carry functions for the policy model and for stateful observations
"""Initial env state of a batched RL rollout (policy carry + observation carry)."""
import sys
from dataclasses import dataclass
from typing import NamedTuple

import equinox as eqx
import jax
import jax.numpy as jnp
from jaxtyping import Array, PRNGKeyArray


@dataclass(frozen=True)
class TaskConfig:
    num_envs: int = 4
    hidden_size: int = 8
    obs_size: int = 6
    num_commands: int = 3


class RolloutEnvState(NamedTuple):
    commands: Array
    model_carry: Array
    obs_carry: Array
    curriculum_level: Array
    rng: Array


class RecurrentPolicy(eqx.Module):
    cell: eqx.nn.GRUCell
    hidden_size: int = eqx.field(static=True)

    def __init__(self, cfg: TaskConfig, *, key: PRNGKeyArray):
        self.cell = eqx.nn.GRUCell(cfg.obs_size, cfg.hidden_size, key=key)
        self.hidden_size = cfg.hidden_size

    def initial_carry(self, rng: PRNGKeyArray) -> Array:
        # Small random hidden state so that envs do not start in lock-step.
        return 0.01 * jax.random.normal(rng, (self.hidden_size,))


def initial_obs_carry(rng: PRNGKeyArray) -> Array:
    """Stateful observation: actuator latency buffer, randomised per env (in steps)."""
    return 0.01 * jax.random.normal(rng, (2,))


class RLTask:
    def __init__(self, config: TaskConfig):
        self.config = config

    def get_initial_env_state(self, policy: RecurrentPolicy, rng: PRNGKeyArray) -> RolloutEnvState:
        (
            rng,
            carry_rng,
            command_rng,
            rand_rng,
            rollout_rng,
            curriculum_rng,
            reward_rng,
        ) = jax.random.split(rng, 7)

        carry_fn = jax.vmap(policy.initial_carry)
        obs_carry_fn = jax.vmap(initial_obs_carry)
        commands = jax.random.uniform(command_rng, (self.config.num_envs, self.config.num_commands), minval=-1, maxval=1)
        return RolloutEnvState(
            commands=commands,
            model_carry=carry_fn(jax.random.split(carry_rng, self.config.num_envs)),  # expect
            obs_carry=obs_carry_fn(jax.random.split(carry_rng, self.config.num_envs)),  # expect
            curriculum_level=jax.random.uniform(curriculum_rng, (self.config.num_envs,)),
            rng=jax.random.split(rollout_rng, self.config.num_envs),
        )


def main() -> None:
    cfg = TaskConfig()
    task = RLTask(cfg)
    key = jax.random.key(0)
    key, policy_key, state_key = jax.random.split(key, 3)
    policy = RecurrentPolicy(cfg, key=policy_key)
    state = eqx.filter_jit(task.get_initial_env_state)(policy, state_key)
    print("env 0 model carry[:2]:", state.model_carry[0, :2], "obs carry:", state.obs_carry[0])
    if bool(jnp.allclose(state.model_carry[:, :2], state.obs_carry)):
        print("HAZARD: every env's observation carry repeats the first draws of its model carry")

    jax.config.update("jax_debug_key_reuse", True)
    try:
        task.get_initial_env_state(policy, jax.random.key(1))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")


if __name__ == "__main__":
    main()
