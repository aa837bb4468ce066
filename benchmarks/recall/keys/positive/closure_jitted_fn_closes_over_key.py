# recall-case: positive
# rule: OPT020
# class: closure
# source: https://github.com/jax-ml/jax/issues/20704
# shown: identical exploration noise on both calls; on jax 0.10.2 jax_debug_key_reuse raises KeyReuseError at the second call (the issue, since fixed, was that it did not)
# style: RL actor with a jitted helper that closes over the episode key
import sys

import jax
import jax.numpy as jnp


def make_actor(weights, key, noise_scale=0.1):
    @jax.jit
    def act(obs):
        action = jnp.tanh(obs @ weights)
        return action + noise_scale * jax.random.normal(key, action.shape)  # expect

    return act


def two_steps(act, obs):
    a1 = act(obs)  # expect
    a2 = act(obs)  # expect
    return a1, a2


if __name__ == "__main__":
    obs = jnp.zeros(2)
    a1, a2 = two_steps(make_actor(jnp.eye(2), jax.random.key(0)), obs)
    if bool(jnp.all(a1 == a2)):
        print("HAZARD: two steps received identical exploration noise:", a1)
    jax.config.update("jax_debug_key_reuse", True)
    try:
        two_steps(make_actor(jnp.eye(2), jax.random.key(0)), obs)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
