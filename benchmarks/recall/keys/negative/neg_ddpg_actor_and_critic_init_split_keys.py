# recall-case: negative
# rule: OPT020
# class: other-library
# source: https://github.com/vwxyzjn/cleanrl/commit/ee80f6bb8cd14871f2f4a53a502932c05297d1ec ("correctly implementing keys")
# shown: the fix: `key, actor_key, qf1_key = jax.random.split(key, 3)`, one init per network; each target starts as a copy of its online parameters (the same pytree, not a second init); the hidden kernels differ; prints OK
# style: CleanRL single-file script: an Args dataclass, flax.linen Actor and QNetwork, TrainState with target params, a numpy toy env with a gym-like API, a global-step loop with jitted update functions
"""DDPG (continuous actions), CleanRL style, on a toy point-mass environment."""
import random
import time
from dataclasses import dataclass

import flax
import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training.train_state import TrainState


@dataclass
class Args:
    exp_name: str = "ddpg_continuous_action_jax"
    seed: int = 1
    total_timesteps: int = 60
    learning_rate: float = 3e-4
    buffer_size: int = 1000
    gamma: float = 0.99
    tau: float = 0.005
    batch_size: int = 16
    exploration_noise: float = 0.1
    learning_starts: int = 20


class PointMassEnv:
    """obs: position and velocity; action: a force in [-1, 1]."""

    observation_dim, action_dim = 2, 1

    def __init__(self, seed: int):
        self.np_random = np.random.default_rng(seed)

    def reset(self):
        self.state = self.np_random.uniform(-1, 1, size=2).astype(np.float32)
        return self.state.copy()

    def step(self, action):
        pos, vel = self.state
        vel = 0.9 * vel + 0.1 * float(action[0])
        self.state = np.array([pos + 0.1 * vel, vel], np.float32)
        return self.state.copy(), -abs(pos), abs(pos) > 3, {}

    def sample_action(self):
        return self.np_random.uniform(-1, 1, size=1).astype(np.float32)


class QNetwork(nn.Module):
    @nn.compact
    def __call__(self, x: jnp.ndarray, a: jnp.ndarray):
        x = jnp.concatenate([x, a], -1)
        x = nn.relu(nn.Dense(256)(x))
        x = nn.relu(nn.Dense(256)(x))
        return nn.Dense(1)(x)


class Actor(nn.Module):
    action_dim: int
    action_scale: float = 1.0

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(256)(x))
        x = nn.relu(nn.Dense(256)(x))
        return nn.tanh(nn.Dense(self.action_dim)(x)) * self.action_scale


class TrainState(TrainState):
    target_params: flax.core.FrozenDict


if __name__ == "__main__":
    args = Args()
    run_name = f"PointMass__{args.exp_name}__{args.seed}__{int(time.time())}"
    random.seed(args.seed)
    np.random.seed(args.seed)
    key = jax.random.PRNGKey(args.seed)
    key, actor_key, qf1_key = jax.random.split(key, 3)

    env = PointMassEnv(args.seed)
    obs = env.reset()
    action = env.sample_action()
    actor = Actor(action_dim=env.action_dim)
    qf1 = QNetwork()
    actor_params = actor.init(actor_key, obs)
    qf1_params = qf1.init(qf1_key, obs, action)
    actor_state = TrainState.create(
        apply_fn=actor.apply,
        params=actor_params,
        target_params=actor_params,
        tx=optax.adam(learning_rate=args.learning_rate),
    )
    qf1_state = TrainState.create(
        apply_fn=qf1.apply,
        params=qf1_params,
        target_params=qf1_params,
        tx=optax.adam(learning_rate=args.learning_rate),
    )
    initial_params = {"actor": actor_state.params, "qf1": qf1_state.params}
    actor.apply = jax.jit(actor.apply)
    qf1.apply = jax.jit(qf1.apply)

    @jax.jit
    def update_critic(actor_state, qf1_state, observations, actions, next_observations, rewards, dones):
        next_state_actions = actor.apply(actor_state.target_params, next_observations).clip(-1, 1)
        qf1_next_target = qf1.apply(qf1_state.target_params, next_observations, next_state_actions).reshape(-1)
        next_q_value = (rewards + (1 - dones) * args.gamma * qf1_next_target).reshape(-1)

        def mse_loss(params):
            qf1_a_values = qf1.apply(params, observations, actions).squeeze()
            return ((qf1_a_values - next_q_value) ** 2).mean()

        qf1_loss_value, grads = jax.value_and_grad(mse_loss)(qf1_state.params)
        return qf1_state.apply_gradients(grads=grads), qf1_loss_value

    @jax.jit
    def update_actor(actor_state, qf1_state, observations):
        def actor_loss(params):
            return -qf1.apply(qf1_state.params, observations, actor.apply(params, observations)).mean()

        actor_loss_value, grads = jax.value_and_grad(actor_loss)(actor_state.params)
        actor_state = actor_state.apply_gradients(grads=grads)
        actor_state = actor_state.replace(
            target_params=optax.incremental_update(actor_state.params, actor_state.target_params, args.tau))
        return actor_state, actor_loss_value

    buffer = {k: [] for k in ("obs", "actions", "next_obs", "rewards", "dones")}
    for global_step in range(args.total_timesteps):
        if global_step < args.learning_starts:
            action = env.sample_action()
        else:
            action = np.asarray(actor.apply(actor_state.params, obs))
            action = (action + np.random.normal(0, args.exploration_noise, size=1)).clip(-1, 1)
        next_obs, reward, done, _ = env.step(action)
        for k, v in zip(buffer, (obs, action, next_obs, reward, float(done)), strict=True):
            buffer[k].append(np.asarray(v, np.float32))
        obs = env.reset() if done else next_obs

        if global_step > args.learning_starts:
            idx = np.random.randint(0, len(buffer["obs"]), args.batch_size)
            batch = [np.stack([buffer[k][i] for i in idx]) for k in buffer]
            qf1_state, qf1_loss = update_critic(actor_state, qf1_state, *batch)
            actor_state, actor_loss = update_actor(actor_state, qf1_state, batch[0])
    print(run_name, "qf1_loss", float(qf1_loss), "actor_loss", float(actor_loss))

    actor_hidden = initial_params["actor"]["params"]["Dense_1"]["kernel"]
    critic_hidden = initial_params["qf1"]["params"]["Dense_1"]["kernel"]
    print("actor Dense_1[0, :3]:", actor_hidden[0, :3], " qf1 Dense_1[0, :3]:", critic_hidden[0, :3])
    assert not bool(jnp.array_equal(actor_hidden, critic_hidden))
    print("OK")
