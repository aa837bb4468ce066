# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/instadeepai/Mava/commit/838b56ad6783dccb1dbb2a3541561db92fe7b409
# shown: every step of the scanned acting rollout adds the same Gaussian exploration noise (pi.sample(seed=key) with the key the carry hands back unchanged), then KeyReuseError under jax_debug_key_reuse ("scan body function leads to key reuse")
# style: Anakin-style SAC system: flax.linen actor returning a distrax policy, a toy vectorised env, lax.scan acting loop inside a jitted update step
"""Independent SAC, acting half: fill the replay buffer with a scanned rollout.

The actor outputs a squashed-Gaussian policy; the acting loop scans over
`rollout_length` steps, sampling an action per step and stepping the env.
"""
import sys
from dataclasses import dataclass
from typing import Any, NamedTuple, Tuple

import distrax
import flax.linen as nn
import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class SystemConfig:
    num_envs: int = 4
    obs_dim: int = 3
    action_dim: int = 2
    rollout_length: int = 6
    hidden: int = 32
    seed: int = 42


class EnvState(NamedTuple):
    pos: jax.Array
    t: jax.Array


class BufferState(NamedTuple):
    actions: jax.Array
    noise: jax.Array
    idx: jax.Array


class Actor(nn.Module):
    action_dim: int
    hidden: int

    @nn.compact
    def __call__(self, obs: jax.Array) -> distrax.Distribution:
        x = nn.relu(nn.Dense(self.hidden)(obs))
        x = nn.relu(nn.Dense(self.hidden)(x))
        loc = nn.Dense(self.action_dim)(x)
        log_std = jnp.clip(nn.Dense(self.action_dim)(x), -5.0, 2.0)
        base = distrax.MultivariateNormalDiag(loc, jnp.exp(log_std))
        return distrax.Transformed(base, distrax.Block(distrax.Tanh(), ndims=1))


def env_step(state: EnvState, action: jax.Array) -> Tuple[EnvState, jax.Array]:
    pos = state.pos + 0.1 * jnp.pad(action, ((0, 0), (0, 1)))
    return EnvState(pos, state.t + 1), pos


def make_act_fn(cfg: SystemConfig, actor_net: Actor):
    def step(action, obs, env_state, buffer_state):
        env_state, next_obs = env_step(env_state, action)
        buffer_state = BufferState(
            buffer_state.actions.at[buffer_state.idx].set(action),
            buffer_state.noise,
            buffer_state.idx + 1,
        )
        return next_obs, env_state, buffer_state

    def exploration_noise(pi: distrax.Transformed, action: jax.Array) -> jax.Array:
        """The standard-normal draw behind `action` (logged as a rollout metric)."""
        pre_tanh = jnp.arctanh(jnp.clip(action, -0.999999, 0.999999))
        return (pre_tanh - pi.distribution.loc) / pi.distribution.scale_diag

    def act(carry: Tuple[Any, jax.Array, EnvState, BufferState, jax.Array], _: Any):
        """Acting loop: select action, step env, add to buffer."""
        actor_params, obs, env_state, buffer_state, key = carry

        pi = actor_net.apply(actor_params, obs)
        action = pi.sample(seed=key)  # expect

        noise = buffer_state.noise.at[buffer_state.idx].set(exploration_noise(pi, action))
        next_obs, env_state, buffer_state = step(action, obs, env_state, buffer_state._replace(noise=noise))
        return (actor_params, next_obs, env_state, buffer_state, key), None  # expect

    @jax.jit
    def rollout(actor_params, obs, env_state, buffer_state, act_key):
        carry = (actor_params, obs, env_state, buffer_state, act_key)
        carry, _ = jax.lax.scan(act, carry, None, length=cfg.rollout_length)
        return carry[3]

    return rollout


def main() -> None:
    cfg = SystemConfig()
    key = jax.random.key(cfg.seed)
    key, actor_key, reset_key, act_key = jax.random.split(key, 4)

    actor_net = Actor(cfg.action_dim, cfg.hidden)
    obs = jax.random.normal(reset_key, (cfg.num_envs, cfg.obs_dim))
    actor_params = actor_net.init(actor_key, obs)
    env_state = EnvState(obs, jnp.zeros((), jnp.int32))
    buffer_state = BufferState(
        jnp.zeros((cfg.rollout_length, cfg.num_envs, cfg.action_dim)),
        jnp.zeros((cfg.rollout_length, cfg.num_envs, cfg.action_dim)),
        jnp.zeros((), jnp.int32),
    )

    rollout = make_act_fn(cfg, actor_net)
    noise = rollout(actor_params, obs, env_state, buffer_state, act_key).noise
    print("exploration noise of env 0, steps 0 and 5:", noise[0, 0], noise[5, 0])
    if bool(jnp.allclose(noise, noise[0], atol=1e-3)):
        print("HAZARD: all", cfg.rollout_length, "rollout steps drew the same exploration noise")

    jax.config.update("jax_debug_key_reuse", True)
    try:
        rollout(actor_params, obs, env_state, buffer_state, jax.random.key(cfg.seed + 1))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")


if __name__ == "__main__":
    main()
