# recall-case: negative
# rule: OPT020
# class: basic
# source: https://github.com/kscalelabs/ksim/commit/ff4a3fbd3803c53674babf0b57781df69b3891c9 (the fixed events split one key per draw; here one event object picks push or jump, and each branch draws from the one rng once)
# shown: exactly one branch runs per call, so the rng is consumed once; the jitted `lax.cond` version and the Python `if`/`else` version both pass JAX's key-reuse checker with typed keys; prints OK
# style: Equinox module as a robot-learning "event" with ranges as fields, a mode flag chosen per episode, called inside a jitted lax.scan rollout
"""One randomized event that either pushes or makes the robot jump."""
import equinox as eqx
import jax
import jax.numpy as jnp


class PerturbationEvent(eqx.Module):
    force_range: tuple = (0.5, 2.0)
    height_range: tuple = (0.1, 0.4)
    gravity: float = 9.81

    def python_branch(self, qvel, push: bool, rng):
        if push:
            lo, hi = self.force_range
            forces = jax.random.uniform(rng, shape=(6,), minval=lo, maxval=hi)
            return qvel.at[:6].add(forces)
        else:
            lo, hi = self.height_range
            height = jax.random.uniform(rng, (), minval=lo, maxval=hi)
            return qvel.at[2].set(jnp.sqrt(2 * self.gravity * height))

    def traced_branch(self, qvel, push, rng):
        return jax.lax.cond(
            push,
            lambda q, k: self.python_branch(q, True, k),
            lambda q, k: self.python_branch(q, False, k),
            qvel,
            rng,
        )


@jax.jit
def rollout(rng, pushes):
    event = PerturbationEvent()

    def step(qvel, inputs):
        step_rng, push = inputs
        return event.traced_branch(qvel, push, step_rng), qvel

    return jax.lax.scan(step, jnp.zeros(8), (jax.random.split(rng, pushes.shape[0]), pushes))


def main() -> None:
    jax.config.update("jax_debug_key_reuse", True)
    event = PerturbationEvent()
    first, second = jax.random.split(jax.random.key(0))
    event.python_branch(jnp.zeros(8), True, first)
    event.python_branch(jnp.zeros(8), False, second)
    final, _ = rollout(jax.random.key(1), jnp.array([True, False, True]))
    assert final.shape == (8,)
    print("OK")


if __name__ == "__main__":
    main()
