# recall-case: negative
# rule: OPT020
# class: calls-and-state
# source: https://github.com/araffin/sbx/commit/42caa65fcbf4c74bd007d995baf0f4bdcdf7f42a (issue #45, PR #46)
# shown: the fix: `_train` returns `update_carry["key"]`, the key the fori_loop advanced, and `train()` stores it; the two train() calls draw different target noise and jax_debug_key_reuse raises nothing; prints OK
# style: Stable-Baselines-Jax algorithm class: a numpy replay buffer, flax.linen actor and twin critics in TrainStates, a @staticmethod jitted `_train` with a dict carry through lax.fori_loop, `self.key` on the algorithm object
"""SAC on a toy continuous task, SBX style.

The algorithm object owns the policy's train states, a replay buffer and
`self.key`; `train()` samples a batch of transitions and hands everything to
the jitted `_train`, which runs `gradient_steps` updates in a `fori_loop`.
"""
import sys
from functools import partial
from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training.train_state import TrainState


class Actor(nn.Module):
    action_dim: int

    @nn.compact
    def __call__(self, obs):
        x = nn.relu(nn.Dense(32)(obs))
        mean = nn.Dense(self.action_dim)(x)
        log_std = jnp.clip(nn.Dense(self.action_dim)(x), -5.0, 2.0)
        return mean, log_std


class VectorCritic(nn.Module):
    n_critics: int = 2

    @nn.compact
    def __call__(self, obs, action):
        x = jnp.concatenate([obs, action], axis=-1)
        qs = [nn.Dense(1)(nn.relu(nn.Dense(32)(x))) for _ in range(self.n_critics)]
        return jnp.stack(qs)[..., 0]


class RLTrainState(TrainState):
    target_params: Any = None


class ReplayBuffer:
    def __init__(self, size: int, obs_dim: int, act_dim: int, seed: int):
        self.obs = np.zeros((size, obs_dim), np.float32)
        self.actions = np.zeros((size, act_dim), np.float32)
        self.rewards = np.zeros((size,), np.float32)
        self.next_obs = np.zeros((size, obs_dim), np.float32)
        self.dones = np.zeros((size,), np.float32)
        self.pos, self.full, self.size = 0, False, size
        self.np_rng = np.random.default_rng(seed)

    def add(self, obs, action, reward, next_obs, done):
        self.obs[self.pos], self.actions[self.pos] = obs, action
        self.rewards[self.pos], self.next_obs[self.pos], self.dones[self.pos] = reward, next_obs, done
        self.pos = (self.pos + 1) % self.size
        self.full = self.full or self.pos == 0

    def sample(self, batch_size: int):
        idx = self.np_rng.integers(0, self.size if self.full else self.pos, batch_size)
        return self.obs[idx], self.actions[idx], self.rewards[idx], self.next_obs[idx], self.dones[idx]


def sample_action(actor_state: TrainState, obs, key):
    mean, log_std = actor_state.apply_fn(actor_state.params, obs)
    eps = jax.random.normal(key, mean.shape)
    return jnp.tanh(mean + jnp.exp(log_std) * eps), eps


class SAC:
    def __init__(self, obs_dim: int = 3, act_dim: int = 1, seed: int = 0, gradient_steps: int = 4,
                 batch_size: int = 8, gamma: float = 0.99, tau: float = 0.005):
        self.gamma, self.tau = gamma, tau
        self.gradient_steps, self.batch_size = gradient_steps, batch_size
        self.key = jax.random.key(seed)
        self.key, actor_key, qf_key = jax.random.split(self.key, 3)
        obs = jnp.zeros((1, obs_dim))
        actor = Actor(act_dim)
        critic = VectorCritic()
        self.actor_state = TrainState.create(
            apply_fn=actor.apply, params=actor.init(actor_key, obs), tx=optax.adam(3e-4))
        qf_params = critic.init(qf_key, obs, jnp.zeros((1, act_dim)))
        self.qf_state = RLTrainState.create(
            apply_fn=critic.apply, params=qf_params, target_params=qf_params, tx=optax.adam(3e-4))
        self.replay_buffer = ReplayBuffer(64, obs_dim, act_dim, seed)

    @staticmethod
    def update_critic(gamma, actor_state, qf_state, obs, actions, next_obs, rewards, dones, key):
        key, noise_key = jax.random.split(key)
        next_actions, eps = sample_action(actor_state, next_obs, noise_key)
        next_q = qf_state.apply_fn(qf_state.target_params, next_obs, next_actions).min(axis=0)
        target = rewards + (1 - dones) * gamma * next_q

        def mse_loss(params):
            q = qf_state.apply_fn(params, obs, actions)
            return ((q - target) ** 2).mean()

        loss, grads = jax.value_and_grad(mse_loss)(qf_state.params)
        return qf_state.apply_gradients(grads=grads), loss, eps, key

    @staticmethod
    def update_actor(actor_state, qf_state, obs, key):
        key, noise_key = jax.random.split(key)

        def actor_loss(params):
            actions, _ = sample_action(actor_state.replace(params=params), obs, noise_key)
            return -qf_state.apply_fn(qf_state.params, obs, actions).min(axis=0).mean()

        loss, grads = jax.value_and_grad(actor_loss)(actor_state.params)
        return actor_state.apply_gradients(grads=grads), loss, key

    @classmethod
    @partial(jax.jit, static_argnames=["cls", "gradient_steps", "batch_size"])
    def _train(cls, gamma, tau, gradient_steps, batch_size, data, qf_state, actor_state, key):
        carry = {"actor_state": actor_state, "qf_state": qf_state, "key": key,
                 "info": {"qf_loss": jnp.array(0.0), "eps": jnp.zeros((batch_size, 1))}}

        def one_update(i: int, carry: dict[str, Any]) -> dict[str, Any]:
            obs, actions, rewards, next_obs, dones = (
                jax.lax.dynamic_slice_in_dim(x, i * batch_size, batch_size) for x in data)
            qf_state, qf_loss, eps, key = cls.update_critic(
                gamma, carry["actor_state"], carry["qf_state"], obs, actions, next_obs, rewards, dones,
                carry["key"])
            qf_state = qf_state.replace(target_params=optax.incremental_update(
                qf_state.params, qf_state.target_params, tau))
            actor_state, _, key = cls.update_actor(carry["actor_state"], qf_state, obs, key)
            eps = jnp.where(i == 0, eps, carry["info"]["eps"])
            return {"actor_state": actor_state, "qf_state": qf_state, "key": key,
                    "info": {"qf_loss": qf_loss, "eps": eps}}

        update_carry = jax.lax.fori_loop(0, gradient_steps, one_update, carry)
        return (
            update_carry["qf_state"],
            update_carry["actor_state"],
            update_carry["key"],
            update_carry["info"],
        )

    def train(self) -> dict[str, jax.Array]:
        batches = [self.replay_buffer.sample(self.batch_size) for _ in range(self.gradient_steps)]
        data = tuple(jnp.asarray(np.concatenate(parts)) for parts in zip(*batches, strict=True))
        (self.qf_state, self.actor_state, self.key, info) = self._train(
            self.gamma, self.tau, self.gradient_steps, self.batch_size, data,
            self.qf_state, self.actor_state,
            self.key,
        )
        return info

    def collect(self, n_steps: int) -> None:
        rng = np.random.default_rng(1)
        obs = rng.normal(size=3).astype(np.float32)
        for _ in range(n_steps):
            self.key, act_key = jax.random.split(self.key)
            action, _ = sample_action(self.actor_state, obs[None], act_key)
            next_obs = (0.9 * obs + 0.1 * rng.normal(size=3)).astype(np.float32)
            reward = -float(np.abs(next_obs).sum())
            self.replay_buffer.add(obs, np.asarray(action[0]), reward, next_obs, 0.0)
            obs = next_obs


def main() -> None:
    model = SAC()
    model.collect(32)
    key_before_learn = jax.random.key_data(model.key)
    first = model.train()
    second = model.train()
    print("first-update target noise, two train() calls:", first["eps"][:3, 0], second["eps"][:3, 0])
    assert not np.allclose(key_before_learn, jax.random.key_data(model.key))
    assert not bool(jnp.array_equal(first["eps"], second["eps"]))

    jax.config.update("jax_debug_key_reuse", True)
    model = SAC(seed=1)
    model.collect(32)
    try:
        model.train()
        model.train()
    except jax.errors.KeyReuseError as err:
        print("unexpected KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("OK")


if __name__ == "__main__":
    main()
