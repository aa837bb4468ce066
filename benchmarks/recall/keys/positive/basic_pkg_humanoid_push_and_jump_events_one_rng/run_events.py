"""Roll the walker forward and fire its events; shows the hazard in events.py."""
import sys

import jax
import jax.numpy as jnp

from walker.events import JumpEvent, PushEvent
from walker.physics import initial_data


@jax.jit
def rollout(rng):
    jump, push = JumpEvent(), PushEvent()

    def step(carry, step_rng):
        data = carry
        jump_rng, push_rng = jax.random.split(step_rng)
        data, (height, delay) = jump(data, 1.0, jump_rng)
        data, _ = push(data, 1.0, push_rng)
        return data, (height, delay)

    keys = jax.random.split(rng, 5)
    _, (heights, delays) = jax.lax.scan(step, initial_data(), keys)
    return heights, delays


def main() -> None:
    heights, delays = rollout(jax.random.PRNGKey(0))
    height_unit = (heights - 0.1) / 0.3
    delay_unit = (delays - 2.0) / 4.0
    print("height fractions:", height_unit)
    print("delay fractions: ", delay_unit)
    if bool(jnp.allclose(height_unit, delay_unit, atol=1e-5)):
        print("HAZARD: every jump's delay is the same uniform draw as its height")

    jax.config.update("jax_debug_key_reuse", True)
    try:
        PushEvent()(initial_data(), 1.0, jax.random.key(1))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")


if __name__ == "__main__":
    main()
