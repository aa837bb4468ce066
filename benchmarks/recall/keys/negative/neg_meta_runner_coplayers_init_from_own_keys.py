# recall-case: negative
# rule: OPT020
# class: basic
# source: https://github.com/ucl-dark/pax/commit/006540f2e3cd18883f0f02ff9ccf2ff1def731e5 (the fix: `_rng_run, agent1_rng = split(_rng_run, 2)`, `_rng_run, agent2_rng = split(_rng_run, 2)`, then each co-player's batch_init splits its own key), with the env reset on its own key as in https://github.com/ucl-dark/pax/commit/26ef6f38dbd6027c9dd846f53f7e45e2a150ae74
# shown: `_rng_run` is split once into an env-reset key, a key per co-player and a key for the inner episode; players 2 and 3 start from different weights in every opponent slot and with typed keys under jax_debug_key_reuse two jitted trials raise nothing; prints OK
# style: multi-agent meta-learning runner: flax.linen policies, a PPO-like agent class with a vmapped batch_init(keys, hidden) and a policy, a 3-player iterated matrix game with batched reset/step, a TensorEvalRunner-like class whose jitted _rollout resets envs, re-initialises the co-players per trial and scans the inner episode
"""Three-player iterated game: player 1 meta-learns against freshly initialised co-players."""
from typing import NamedTuple

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np


class Args(NamedTuple):
    num_envs: int = 4
    num_opps: int = 3
    num_inner_steps: int = 5
    hidden: int = 8


class Policy(nn.Module):
    hidden: int

    @nn.compact
    def __call__(self, obs, carry):
        carry = jnp.tanh(nn.Dense(self.hidden)(jnp.concatenate([obs, carry], -1)))
        return nn.Dense(2)(carry), carry


class TrainingState(NamedTuple):
    params: dict


class MemoryState(NamedTuple):
    hidden: jnp.ndarray


class Agent:
    def __init__(self, args: Args, obs_dim: int):
        self.args = args
        self.network = Policy(args.hidden)
        self.obs_dim = obs_dim

        def init(key, hidden):
            params = self.network.init(key, jnp.zeros((1, obs_dim)), hidden[:1])
            return TrainingState(params), MemoryState(hidden)

        self.batch_init = jax.vmap(init, in_axes=(0, None))
        self._mem = MemoryState(jnp.zeros((args.num_envs, args.hidden)))

    def policy(self, state: TrainingState, obs, mem: MemoryState, key):
        logits, hidden = self.network.apply(state.params, obs, mem.hidden)
        return jax.random.categorical(key, logits), MemoryState(hidden)


class ThreePlayerGame:
    """Iterated public-goods game; observations are the last joint action."""

    obs_dim = 3

    def reset(self, keys):
        return jax.vmap(jax.vmap(lambda k: jax.random.bernoulli(k, 0.5, (3,)).astype(jnp.float32)))(keys)

    def step(self, actions):
        a = jnp.stack(actions, -1).astype(jnp.float32)
        pot = a.sum(-1, keepdims=True) * 1.5 / 3
        return a, pot - a


class TensorEvalRunner:
    def __init__(self, args: Args):
        self.args = args
        self.env = ThreePlayerGame()
        self.agents = [Agent(args, self.env.obs_dim) for _ in range(3)]
        self.rollout = jax.jit(self._rollout)

    def _rollout(self, _rng_run, _a1_state):
        args = self.args
        agent1, agent2, agent3 = self.agents
        env_reset_rng, agent2_rng, agent3_rng, episode_rng = jax.random.split(_rng_run, 4)
        # env reset
        rngs = jax.random.split(env_reset_rng, (args.num_opps, args.num_envs))
        obs = self.env.reset(rngs)
        # meta-experiments - init other agents per trial
        _a2_state, _a2_mem = agent2.batch_init(
            jax.random.split(agent2_rng, args.num_opps), agent2._mem.hidden
        )
        _a3_state, _a3_mem = agent3.batch_init(
            jax.random.split(agent3_rng, args.num_opps), agent3._mem.hidden
        )

        def inner_step(carry, key):
            obs, m1, m2, m3 = carry
            k1, k2, k3 = jax.random.split(key, 3)
            act = jax.vmap(agent1.policy, in_axes=(None, 0, 0, None))
            act_opp = jax.vmap(agent2.policy, in_axes=(0, 0, 0, None))
            a1, m1 = act(_a1_state, obs, m1, k1)
            a2, m2 = act_opp(_a2_state, obs, m2, k2)
            a3, m3 = act_opp(_a3_state, obs, m3, k3)
            obs, rewards = self.env.step((a1, a2, a3))
            return (obs, m1, m2, m3), rewards.mean()

        m1 = MemoryState(jnp.broadcast_to(agent1._mem.hidden, (args.num_opps, *agent1._mem.hidden.shape)))
        step_keys = jax.random.split(episode_rng, args.num_inner_steps)
        _, rewards = jax.lax.scan(inner_step, (obs, m1, _a2_mem, _a3_mem), step_keys)
        return rewards.mean(), _a2_state, _a3_state


def run(typed_keys: bool):
    make_key = jax.random.key if typed_keys else jax.random.PRNGKey
    args = Args()
    runner = TensorEvalRunner(args)
    init_key, rng = jax.random.split(make_key(0))
    a1_state, _ = runner.agents[0].batch_init(jax.random.split(init_key, 1), runner.agents[0]._mem.hidden)
    a1_state = jax.tree_util.tree_map(lambda x: x[0], a1_state)
    results = []
    for trial in range(2):
        rng, rng_run = jax.random.split(rng)
        mean_reward, a2_state, a3_state = runner.rollout(rng_run, a1_state)
        print(f"trial {trial}: mean reward {float(mean_reward):.3f}")
        results.append((a2_state, a3_state))
    return results, args


if __name__ == "__main__":
    results, args = run(typed_keys=False)
    a2_state, a3_state = results[-1]
    w2 = np.asarray(a2_state.params["params"]["Dense_0"]["kernel"])
    w3 = np.asarray(a3_state.params["params"]["Dense_0"]["kernel"])
    assert not any(np.array_equal(w2[i], w3[i]) for i in range(args.num_opps))
    jax.config.update("jax_debug_key_reuse", True)
    run(typed_keys=True)
    print("OK")
