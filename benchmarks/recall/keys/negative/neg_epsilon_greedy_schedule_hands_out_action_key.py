# recall-case: negative
# rule: OPT020
# class: calls-and-state
# source: https://github.com/theovincent/i-DQN/issues/13 ("Key reuse in AtariEnv": the action must not draw from the key the next `explore()` splits)
# shown: `explore()` splits the schedule key three ways and returns the decision together with a fresh `action_key`; the environment hands `action_key` to exactly one of `random_action` / `best_action` (exclusive branches, one draw each) and never touches `schedule.key`; with typed keys under jax_debug_key_reuse 40 collection steps raise nothing; prints OK
# style: research DQN code base: an EpsilonGreedySchedule class holding a key and an optax schedule, a BaseQ / iDQN class with jitted random_action / best_action (best_action picks one of several Bellman heads with the key), an environment wrapper with collect_one_sample(q, params, horizon, replay_buffer, exploration_schedule), a replay buffer and a training loop
"""iDQN sample collection on a small chain MDP."""
from functools import partial

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax


class EpsilonGreedySchedule:
    def __init__(self, starting_eps, ending_eps, duration_eps, key, current_exploration_step=0):
        self.epsilon_schedule = optax.linear_schedule(starting_eps, ending_eps, duration_eps)
        self.current_exploration_step = current_exploration_step
        self.key = key

    def explore(self):
        """Decide whether to explore; also hand out a key for the action itself."""
        self.current_exploration_step += 1
        self.key, explore_key, action_key = jax.random.split(self.key, 3)
        return bool(self.explore_(explore_key, self.current_exploration_step)), action_key

    @partial(jax.jit, static_argnames="self")
    def explore_(self, key, exploration_step):
        return jax.random.uniform(key) < self.epsilon_schedule(exploration_step)


class QNet(nn.Module):
    n_actions: int
    n_heads: int

    @nn.compact
    def __call__(self, state):
        x = nn.relu(nn.Dense(32)(state))
        return nn.Dense(self.n_heads * self.n_actions)(x).reshape(self.n_heads, self.n_actions)


class iDQN:
    def __init__(self, state_dim, n_actions, n_heads, key):
        self.n_actions, self.n_heads = n_actions, n_heads
        self.network = QNet(n_actions, n_heads)
        self.params = self.network.init(key, jnp.zeros(state_dim))

    @partial(jax.jit, static_argnames="self")
    def random_action(self, key) -> jnp.int8:
        return jax.random.choice(key, jnp.arange(self.n_actions)).astype(jnp.int8)

    @partial(jax.jit, static_argnames="self")
    def best_action(self, params, state, key) -> jnp.int8:
        # one Bellman head, drawn at random, acts greedily
        head = jax.random.randint(key, (), 0, self.n_heads)
        return jnp.argmax(self.network.apply(params, state)[head]).astype(jnp.int8)


class ReplayBuffer:
    def __init__(self):
        self.transitions = []

    def add(self, observation, action, reward, terminal, episode_end):
        self.transitions.append((observation, int(action), reward, terminal, episode_end))


class ChainEnv:
    """A 6-state chain: action 1 moves right, reward at the right end."""

    def __init__(self, n_states=6):
        self.n_states, self.n_actions = n_states, 2
        self.reset()

    @property
    def state(self):
        return jnp.asarray(np.eye(self.n_states)[self.position], jnp.float32)

    @property
    def observation(self):
        return self.position

    def reset(self):
        self.position, self.n_steps = 0, 0

    def step(self, action):
        self.n_steps += 1
        self.position = min(self.position + 1, self.n_states - 1) if action == 1 else max(self.position - 1, 0)
        terminal = self.position == self.n_states - 1
        return float(terminal), terminal, {}

    def collect_one_sample(self, q, q_params, horizon, replay_buffer, exploration_schedule):
        observation = self.observation
        explore, action_key = exploration_schedule.explore()
        if explore:
            action = q.random_action(action_key)
        else:
            action = q.best_action(q_params, self.state, action_key)
        reward, terminal, _ = self.step(action)
        episode_end = terminal or self.n_steps >= horizon
        replay_buffer.add(observation, action, reward, terminal, episode_end=episode_end)
        if episode_end:
            self.reset()
        return reward, episode_end


def train(key, n_steps=40, horizon=20):
    q_key, exploration_key = jax.random.split(key)
    env = ChainEnv()
    q = iDQN(env.n_states, env.n_actions, n_heads=3, key=q_key)
    schedule = EpsilonGreedySchedule(1.0, 0.1, 30, exploration_key)
    buffer = ReplayBuffer()
    rewards = 0.0
    for _ in range(n_steps):
        reward, _ = env.collect_one_sample(q, q.params, horizon, buffer, schedule)
        rewards += reward
    return rewards, buffer


if __name__ == "__main__":
    rewards, buffer = train(jax.random.PRNGKey(0))
    print(f"collected {len(buffer.transitions)} transitions, total reward {rewards}")
    jax.config.update("jax_debug_key_reuse", True)
    train(jax.random.key(0))
    print("OK")
