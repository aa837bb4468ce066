# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/google-deepmind/mujoco_playground/pull/349
# shown: every reset's velocity perturbation equals its position perturbation (one subkey drawn twice), then KeyReuseError under jax_debug_key_reuse
# style: MJX/Brax-style environment class: reset(rng) -> State, vmapped over a batch of reset keys
import sys
from typing import NamedTuple

import jax
import jax.numpy as jnp


class State(NamedTuple):
    qpos: jax.Array
    qvel: jax.Array
    obs: jax.Array


class CartpoleBalance:
    """Pole starts upright with small random position and velocity perturbations."""

    n_q = 2

    def reset(self, rng):
        rng, rng1 = jax.random.split(rng)
        qpos = jnp.array([0.0, jnp.pi]) + 0.01 * jax.random.normal(rng1, (self.n_q,))  # expect
        qvel = 0.01 * jax.random.normal(rng1, (self.n_q,))  # expect
        obs = jnp.concatenate([jnp.cos(qpos), jnp.sin(qpos), qvel])
        return State(qpos=qpos, qvel=qvel, obs=obs)


if __name__ == "__main__":
    env = CartpoleBalance()
    states = jax.jit(jax.vmap(env.reset))(jax.random.split(jax.random.PRNGKey(0), 4))
    pos_noise = states.qpos - jnp.array([0.0, jnp.pi])
    print("qvel", states.qvel[0], "qpos noise", pos_noise[0])
    if bool(jnp.allclose(states.qvel, pos_noise, atol=1e-6)):
        print("HAZARD: in all 4 resets the initial velocity equals the position perturbation")
    jax.config.update("jax_debug_key_reuse", True)
    try:
        env.reset(jax.random.key(0))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
