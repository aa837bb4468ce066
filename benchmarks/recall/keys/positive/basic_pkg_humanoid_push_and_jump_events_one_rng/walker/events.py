# recall-case: positive
# rule: OPT020
# class: basic
# source: https://github.com/kscalelabs/ksim/commit/ff4a3fbd3803c53674babf0b57781df69b3891c9 ("correct random number generators": `PushEvent._apply_random_force` drew `uniform(rng, (6,))`, `bernoulli(rng, 0.5, (6,))` and the next interval `uniform(rng, ())` from one rng; `JumpEvent._apply_jump` drew the jump height and the next interval with `uniform(rng, ())` twice)
# shown: the next jump's delay is the jump height's unit draw rescaled (HAZARD: equal unit fractions), then KeyReuseError under jax_debug_key_reuse with a typed key (exit 1). Run by hand: `cd` into the folder, `python run_events.py` (check_cases.py takes files only)
# style: package of several modules (physics.py, events.py, run_events.py): Equinox modules as robot-learning "events" with ranges as fields, called inside a jitted lax.scan rollout
"""Randomized perturbation events applied during a walking rollout."""
import equinox as eqx
import jax
import jax.numpy as jnp

from walker.physics import PhysicsData, with_qvel


class PushEvent(eqx.Module):
    force_range: tuple = (0.5, 2.0)
    interval_range: tuple = (1.0, 3.0)

    def __call__(self, data: PhysicsData, curriculum_level, rng):
        force_min, force_max = self.force_range
        forces = jax.random.uniform(rng, shape=(6,), minval=force_min, maxval=force_max)  # expect
        flip = jax.random.bernoulli(rng, p=0.5, shape=(6,)).astype(forces.dtype) * 2 - 1  # expect
        qvel = data.qvel.at[:6].add(forces * flip * curriculum_level)
        lo, hi = self.interval_range
        time_remaining = jax.random.uniform(rng, (), minval=lo, maxval=hi)
        return with_qvel(data, qvel), time_remaining


class JumpEvent(eqx.Module):
    height_range: tuple = (0.1, 0.4)
    interval_range: tuple = (2.0, 6.0)
    gravity: float = 9.81

    def __call__(self, data: PhysicsData, curriculum_level, rng):
        lo, hi = self.height_range
        height = jax.random.uniform(rng, (), minval=lo, maxval=hi) * curriculum_level  # expect
        qvel = data.qvel.at[2].set(jnp.sqrt(2 * self.gravity * height))
        lo, hi = self.interval_range
        time_remaining = jax.random.uniform(rng, (), minval=lo, maxval=hi)  # expect
        return with_qvel(data, qvel), (height, time_remaining)
