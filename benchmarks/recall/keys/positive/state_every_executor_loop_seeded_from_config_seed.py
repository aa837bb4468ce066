# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/instadeepai/Mava/commit/30b386260bfa69840922c2ba460bcf43da7e4aea
# shown: the three executors' environment loops explore with identical action sequences: each loop builds its own key as jax.random.PRNGKey(rng_seed) from the one config default rng_seed=0 (the checker is silent: every key is fresh)
# style: distributed MARL system builder: config dataclasses, a builder that makes one executor environment loop per executor id, each loop holding its PRNG key as state and splitting it per step
"""Executors of a distributed system, run one after another in a single process."""
from dataclasses import dataclass, field
from typing import Any, Dict, List

import jax
import jax.numpy as jnp
import numpy as np


@dataclass
class ExecutorEnvironmentLoopConfig:
    should_update: bool = True


@dataclass
class JAXParallelExecutorEnvironmentLoopConfig(ExecutorEnvironmentLoopConfig):
    rng_seed: int = 0


@dataclass
class SystemConfig:
    num_executors: int = 3
    num_agents: int = 2
    num_actions: int = 4
    episode_length: int = 6
    loop: JAXParallelExecutorEnvironmentLoopConfig = field(default_factory=JAXParallelExecutorEnvironmentLoopConfig)


class ToyEnv:
    def __init__(self, num_agents: int, episode_length: int):
        self.num_agents, self.episode_length, self.t = num_agents, episode_length, 0

    def reset(self) -> Dict[str, np.ndarray]:
        self.t = 0
        return {f"agent_{i}": np.zeros(3, np.float32) for i in range(self.num_agents)}

    def step(self, actions: Dict[str, int]):
        self.t += 1
        obs = {a: np.full(3, act, np.float32) for a, act in actions.items()}
        return obs, self.t >= self.episode_length


class Executor:
    """Agents' policies; actions are sampled from the logits with a key the loop hands in."""

    def __init__(self, executor_id: str, num_actions: int):
        self.executor_id = executor_id
        self.num_actions = num_actions

    def select_actions(self, observations: Dict[str, np.ndarray], key: jax.Array) -> Dict[str, int]:
        keys = jax.random.split(key, len(observations))
        actions = {}
        for (agent, obs), agent_key in zip(sorted(observations.items()), keys):
            logits = jnp.zeros(self.num_actions) + 0.1 * obs.sum()
            actions[agent] = int(jax.random.categorical(agent_key, logits))
        return actions


class JAXParallelExecutorEnvironmentLoop:
    def __init__(self, environment: ToyEnv, executor: Executor, should_update: bool = True, rng_seed: int = 0):
        self._environment = environment
        self._executor = executor
        self._should_update = should_update
        self.rng_key = jax.random.PRNGKey(rng_seed)  # expect

    def run_episode(self) -> List[Dict[str, int]]:
        observations = self._environment.reset()
        done, trajectory = False, []
        while not done:
            self.rng_key, action_key = jax.random.split(self.rng_key)
            actions = self._executor.select_actions(observations, action_key)
            observations, done = self._environment.step(actions)
            trajectory.append(actions)
        return trajectory


class Builder:
    def __init__(self, config: SystemConfig):
        self.config = config

    def executor(self, executor_id: str) -> JAXParallelExecutorEnvironmentLoop:
        executor = Executor(executor_id, self.config.num_actions)
        environment = ToyEnv(self.config.num_agents, self.config.episode_length)
        return JAXParallelExecutorEnvironmentLoop(
            environment=environment,
            executor=executor,
            should_update=self.config.loop.should_update,
            rng_seed=self.config.loop.rng_seed,  # expect
        )


def launch(config: SystemConfig) -> Dict[str, Any]:
    builder = Builder(config)
    loops = {f"executor_{i}": builder.executor(f"executor_{i}") for i in range(config.num_executors)}
    return {name: loop.run_episode() for name, loop in loops.items()}


def main() -> None:
    trajectories = launch(SystemConfig())
    for name, traj in trajectories.items():
        print(name, [tuple(step.values()) for step in traj])
    first, *others = trajectories.values()
    if all(t == first for t in others):
        print(f"HAZARD: all {len(trajectories)} executors explored with the same action sequence")


if __name__ == "__main__":
    main()
