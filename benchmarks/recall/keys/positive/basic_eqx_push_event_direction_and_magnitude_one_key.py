# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/kscalelabs/ksim/commit/5d78eca8c9a49fa35702e4212f2488d2d77a15f7 ("small bug fix", the whole one-line commit: `LinearPushEvent._apply_random_force` split `urng, brng, trng` and drew the push angle `uniform(urng, (), 0, 2*pi)` and the push speed `uniform(urng, (), *vel_range)` from `urng`; the fix draws the speed from `brng`)
# shown: for every one of 64 vmapped environments the push speed fraction equals the push angle fraction, one uniform number rescaled twice (HAZARD), and with typed keys JAX's key-reuse checker raises KeyReuseError (exit 1)
# style: Equinox robot-simulation events: an eqx.Module event with static ranges, a __call__ that perturbs a velocity state, vmapped over environments inside filter_jit
"""A random linear push applied to every simulated robot."""
import sys

import equinox as eqx
import jax
import jax.numpy as jnp


class LinearPushEvent(eqx.Module):
    vel_range: tuple[float, float] = eqx.field(static=True, default=(0.2, 1.0))
    interval_range: tuple[float, float] = eqx.field(static=True, default=(2.0, 5.0))

    def __call__(self, qvel, curriculum_level, rng):
        urng, brng, trng = jax.random.split(rng, 3)
        push_theta = jax.random.uniform(urng, (), minval=0.0, maxval=2.0 * jnp.pi)  # expect
        direction = jnp.array([jnp.cos(push_theta), jnp.sin(push_theta), 0.0])
        push_mag = jax.random.uniform(urng, (), minval=self.vel_range[0], maxval=self.vel_range[1])  # expect
        new_qvel = qvel.at[:3].add(direction * push_mag * curriculum_level)
        time_remaining = jax.random.uniform(trng, (), minval=self.interval_range[0], maxval=self.interval_range[1])
        return new_qvel, time_remaining, (push_theta, push_mag)


@eqx.filter_jit
def push_all(event, qvel, level, rngs):
    return jax.vmap(event, in_axes=(0, None, 0))(qvel, level, rngs)


def main() -> None:
    event = LinearPushEvent()
    qvel = jnp.zeros((64, 6))
    new_qvel, _, (theta, mag) = push_all(event, qvel, 1.0, jax.random.split(jax.random.PRNGKey(0), 64))
    angle_frac = theta / (2.0 * jnp.pi)
    speed_frac = (mag - event.vel_range[0]) / (event.vel_range[1] - event.vel_range[0])
    print("first pushes:", new_qvel[:2, :3])
    if bool(jnp.allclose(angle_frac, speed_frac, atol=1e-5)):
        print("HAZARD: every push speed is the push angle rescaled:", angle_frac[:3], speed_frac[:3])
    jax.config.update("jax_debug_key_reuse", True)
    try:
        push_all(event, qvel, 1.0, jax.random.split(jax.random.key(1), 64))
    except jax.errors.KeyReuseError as err:
        print("HAZARD:", type(err).__name__, str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse")


if __name__ == "__main__":
    main()
