# recall-case: positive
# rule: OPT004
# source: https://github.com/google-deepmind/optax/issues/828
# shown: HAZARD: parameter stuck at 0.0 after one NaN micro-batch (target 3.0; 10 clean steps, no movement)
# style: src-layout package: dataclass settings with defaults, zero_nans chosen by a flag, factory wraps conditionally in MultiSteps
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

import jax
import jax.numpy as jnp
import optax

from nanguard.optim import OptimSettings, build


def loss(theta, batch):
    return jnp.mean((theta - batch) ** 2)


if __name__ == "__main__":
    tx = build(OptimSettings())  # expect
    theta = jnp.zeros(())
    state = tx.init(theta)
    batches = [jnp.array([3.0, jnp.nan])] + [jnp.array([3.0, 3.0])] * 10
    for b in batches:
        updates, state = tx.update(jax.grad(loss)(theta, b), state, theta)
        theta = optax.apply_updates(theta, updates)
    print("theta after training:", float(theta))
    if float(theta) == 0.0:
        print("HAZARD: zero_nans inside MultiSteps: a single NaN micro-batch froze the parameter")
