# recall-case: negative
# rule: OPT020
# class: basic
# source: https://github.com/google-deepmind/mujoco_playground/pull/349
# shown: runs with jax_debug_key_reuse on; reset splits its key three ways and draws the position and the velocity perturbations from different subkeys; prints OK
# style: MJX/Brax-style environment class: reset(rng) -> State, vmapped over a batch of reset keys
from typing import NamedTuple

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class State(NamedTuple):
    qpos: jax.Array
    qvel: jax.Array
    obs: jax.Array


class CartpoleBalance:
    """Pole starts upright with small random position and velocity perturbations."""

    n_q = 2

    def reset(self, rng):
        rng, pos_rng, vel_rng = jax.random.split(rng, 3)
        qpos = jnp.array([0.0, jnp.pi]) + 0.01 * jax.random.normal(pos_rng, (self.n_q,))
        qvel = 0.01 * jax.random.normal(vel_rng, (self.n_q,))
        obs = jnp.concatenate([jnp.cos(qpos), jnp.sin(qpos), qvel])
        return State(qpos=qpos, qvel=qvel, obs=obs)


if __name__ == "__main__":
    env = CartpoleBalance()
    states = jax.jit(jax.vmap(env.reset))(jax.random.split(jax.random.key(0), 4))
    pos_noise = states.qpos - jnp.array([0.0, jnp.pi])
    assert not bool(jnp.allclose(states.qvel, pos_noise, atol=1e-6))
    print("OK")
