# recall-case: negative
# rule: OPT020
# class: project-consumer
# source: https://github.com/kscalelabs/ksim/commit/9e0421b348a55f309fde447c3b9371b4793a1510
# shown: one rng is handed to every stateful reward's initial_carry in the loop, but none of the reward classes draws from it (they reset to zeros / the current command); no KeyReuseError under jax_debug_key_reuse; prints OK
# style: RL reward terms as small classes (stateless and stateful), a get_rewards function looping over them and resetting stateful carries on episode end
"""Reward computation over a trajectory chunk, with stateful reward terms."""
from dataclasses import dataclass
from typing import Dict, NamedTuple

import jax
import jax.numpy as jnp
from jaxtyping import Array, PRNGKeyArray

jax.config.update("jax_debug_key_reuse", True)


class Trajectory(NamedTuple):
    qvel: Array  # (T, n_joints)
    command: Array  # (T, 2)
    done: Array  # (T,)


@dataclass(frozen=True)
class Reward:
    scale: float

    @property
    def reward_name(self) -> str:
        return type(self).__name__


@dataclass(frozen=True)
class JointVelocityPenalty(Reward):
    def get_reward(self, traj: Trajectory) -> Array:
        return -jnp.square(traj.qvel).sum(-1)


@dataclass(frozen=True)
class StatefulReward(Reward):
    def initial_carry(self, rng: PRNGKeyArray) -> Array:
        raise NotImplementedError

    def get_reward_stateful(self, traj: Trajectory, carry: Array) -> tuple[Array, Array]:
        raise NotImplementedError


@dataclass(frozen=True)
class FeetAirTime(StatefulReward):
    def initial_carry(self, rng: PRNGKeyArray) -> Array:
        del rng  # the air-time counter always starts at zero
        return jnp.zeros(())

    def get_reward_stateful(self, traj, carry):
        def step(c, v):
            c = jnp.where(jnp.abs(v).sum() > 1.0, c + 1.0, 0.0)
            return c, jnp.minimum(c, 3.0)
        return jax.lax.scan(step, carry, traj.qvel)[::-1]


@dataclass(frozen=True)
class CommandTracking(StatefulReward):
    def initial_carry(self, rng: PRNGKeyArray) -> Array:
        return jnp.zeros((2,))  # previous command, none yet; rng unused

    def get_reward_stateful(self, traj, carry):
        def step(prev, cmd):
            return cmd, -jnp.square(cmd - prev).sum()
        return jax.lax.scan(step, carry, traj.command)[::-1]


def get_rewards(traj: Trajectory, rewards: tuple[Reward, ...], rewards_carry: Dict[str, Array], rng: PRNGKeyArray):
    reward_dict, next_carry = {}, {}
    for reward in rewards:
        if isinstance(reward, StatefulReward):
            reward_carry = rewards_carry[reward.reward_name]
            reward_initial_carry = reward.initial_carry(rng)
            reward_carry = jax.tree.map(
                lambda new, old: jnp.where(traj.done[-1], new, old), reward_initial_carry, reward_carry
            )
            value, next_carry[reward.reward_name] = reward.get_reward_stateful(traj, reward_carry)
        else:
            value = reward.get_reward(traj)
        reward_dict[reward.reward_name] = reward.scale * value
    return reward_dict, next_carry


def main() -> None:
    rewards = (JointVelocityPenalty(0.01), FeetAirTime(1.0), CommandTracking(0.5))
    key = jax.random.key(0)
    key, data_key, reward_key = jax.random.split(key, 3)
    k1, k2 = jax.random.split(data_key)
    traj = Trajectory(
        qvel=jax.random.normal(k1, (5, 4)),
        command=jax.random.uniform(k2, (5, 2)),
        done=jnp.array([False, False, False, False, True]),
    )
    carry = {r.reward_name: r.initial_carry(reward_key) for r in rewards if isinstance(r, StatefulReward)}
    key, step_key = jax.random.split(key)
    reward_dict, carry = jax.jit(get_rewards, static_argnums=1)(traj, rewards, carry, step_key)
    print({k: float(v.sum()) for k, v in reward_dict.items()})
    print("OK")


if __name__ == "__main__":
    main()
