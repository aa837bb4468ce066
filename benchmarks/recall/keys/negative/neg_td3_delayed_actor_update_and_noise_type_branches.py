# recall-case: negative
# rule: OPT020
# class: calls-and-state
# source: https://github.com/araffin/sbx/commit/42caa65fcbf4c74bd007d995baf0f4bdcdf7f42a (sbx's `_train`: `jax.lax.cond((policy_delay_offset + i) % policy_delay == 0, update_actor..., lambda *_: (..., key), ..., key)`)
# shown: two places where one key meets two exclusive branches: the delayed actor update (`lax.cond`: one branch splits the key and returns the new one, the other hands it back untouched) and the exploration noise (`if cfg.noise_type == "normal": ... else: ...`, each branch draws once); jax_debug_key_reuse raises nothing over several train() calls and the noise differs per call; prints OK
# style: Stable-Baselines-Jax-like TD3: a frozen config dataclass, flax.linen actor and critic, TrainStates, an algorithm object holding `self.key`, a jitted `_train` with a dict carry through lax.fori_loop
"""TD3 with delayed policy updates on random transitions, SBX style."""
import sys
from dataclasses import dataclass
from functools import partial
from typing import Any

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax.training.train_state import TrainState


@dataclass(frozen=True)
class TD3Config:
    obs_dim: int = 3
    act_dim: int = 2
    gamma: float = 0.99
    policy_delay: int = 2
    gradient_steps: int = 4
    batch_size: int = 8
    target_noise: float = 0.2
    noise_type: str = "normal"
    seed: int = 0


class Actor(nn.Module):
    act_dim: int

    @nn.compact
    def __call__(self, obs):
        return jnp.tanh(nn.Dense(self.act_dim)(nn.relu(nn.Dense(32)(obs))))


class Critic(nn.Module):
    @nn.compact
    def __call__(self, obs, action):
        return nn.Dense(1)(nn.relu(nn.Dense(32)(jnp.concatenate([obs, action], -1))))[..., 0]


def exploration_noise(cfg: TD3Config, key, shape):
    if cfg.noise_type == "normal":
        return cfg.target_noise * jax.random.normal(key, shape)
    else:
        return cfg.target_noise * jax.random.uniform(key, shape, minval=-1.0, maxval=1.0)


class TD3:
    def __init__(self, cfg: TD3Config):
        self.cfg = cfg
        self.key = jax.random.key(cfg.seed)
        self.key, actor_key, qf_key = jax.random.split(self.key, 3)
        obs, act = jnp.zeros((1, cfg.obs_dim)), jnp.zeros((1, cfg.act_dim))
        self.actor_state = TrainState.create(
            apply_fn=Actor(cfg.act_dim).apply, params=Actor(cfg.act_dim).init(actor_key, obs),
            tx=optax.adam(1e-3))
        self.qf_state = TrainState.create(
            apply_fn=Critic().apply, params=Critic().init(qf_key, obs, act), tx=optax.adam(1e-3))

    @staticmethod
    def update_critic(cfg, actor_state, qf_state, batch, key):
        obs, actions, rewards, next_obs = batch
        key, noise_key = jax.random.split(key)
        noise = exploration_noise(cfg, noise_key, actions.shape)
        next_actions = jnp.clip(actor_state.apply_fn(actor_state.params, next_obs) + noise, -1, 1)
        target = rewards + cfg.gamma * qf_state.apply_fn(qf_state.params, next_obs, next_actions)

        def loss(params):
            return jnp.mean((qf_state.apply_fn(params, obs, actions) - target) ** 2)

        grads = jax.grad(loss)(qf_state.params)
        return qf_state.apply_gradients(grads=grads), noise, key

    @staticmethod
    def update_actor(actor_state, qf_state, obs, key):
        key, perturb_key = jax.random.split(key)
        obs = obs + 1e-3 * jax.random.normal(perturb_key, obs.shape)

        def loss(params):
            return -jnp.mean(qf_state.apply_fn(qf_state.params, obs, actor_state.apply_fn(params, obs)))

        grads = jax.grad(loss)(actor_state.params)
        return actor_state.apply_gradients(grads=grads), key

    @classmethod
    @partial(jax.jit, static_argnames=["cls", "cfg"])
    def _train(cls, cfg, data, actor_state, qf_state, key):
        carry: dict[str, Any] = {"actor_state": actor_state, "qf_state": qf_state, "key": key,
                                 "noise": jnp.zeros((cfg.batch_size, cfg.act_dim))}

        def one_update(i, carry):
            batch = tuple(jax.lax.dynamic_slice_in_dim(x, i * cfg.batch_size, cfg.batch_size) for x in data)
            qf_state, noise, key = cls.update_critic(cfg, carry["actor_state"], carry["qf_state"], batch,
                                                     carry["key"])
            actor_state, key = jax.lax.cond(
                i % cfg.policy_delay == 0,
                lambda a, q, o, k: cls.update_actor(a, q, o, k),
                lambda a, q, o, k: (a, k),
                carry["actor_state"], qf_state, batch[0], key,
            )
            noise = jnp.where(i == 0, noise, carry["noise"])
            return {"actor_state": actor_state, "qf_state": qf_state, "key": key, "noise": noise}

        out = jax.lax.fori_loop(0, cfg.gradient_steps, one_update, carry)
        return out["actor_state"], out["qf_state"], out["key"], out["noise"]

    def train(self, rng: np.random.Generator):
        n = self.cfg.gradient_steps * self.cfg.batch_size
        data = (jnp.asarray(rng.normal(size=(n, self.cfg.obs_dim)), jnp.float32),
                jnp.asarray(rng.uniform(-1, 1, size=(n, self.cfg.act_dim)), jnp.float32),
                jnp.asarray(rng.normal(size=n), jnp.float32),
                jnp.asarray(rng.normal(size=(n, self.cfg.obs_dim)), jnp.float32))
        self.actor_state, self.qf_state, self.key, noise = self._train(
            self.cfg, data, self.actor_state, self.qf_state, self.key)
        return noise


def main() -> None:
    jax.config.update("jax_debug_key_reuse", True)
    rng = np.random.default_rng(0)
    for noise_type in ("normal", "uniform"):
        model = TD3(TD3Config(noise_type=noise_type))
        try:
            noises = [model.train(rng) for _ in range(3)]
        except jax.errors.KeyReuseError as err:
            print("unexpected KeyReuseError:", str(err).splitlines()[0])
            sys.exit(1)
        print(noise_type, "target noise of the first update, three calls:", [float(n[0, 0]) for n in noises])
        assert not bool(jnp.array_equal(noises[0], noises[1]))
    print("OK")


if __name__ == "__main__":
    main()
