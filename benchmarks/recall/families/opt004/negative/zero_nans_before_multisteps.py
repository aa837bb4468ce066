# recall-case: negative
# rule: OPT004
# source: https://github.com/google-deepmind/optax/issues/828
# shown: theta 0.0 -> 4.33 after a NaN micro-batch and 10 clean ones: training continues (OK)
# style: the fix: zero_nans outside, MultiSteps(...).gradient_transformation() inside the chain; dataclass settings
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import optax


@dataclass
class OptimSettings:
    lr: float = 0.1
    micro_batches: int = 2


def build(s: OptimSettings):
    inner = optax.MultiSteps(optax.sgd(s.lr, momentum=0.9), every_k_schedule=s.micro_batches)
    return optax.chain(optax.zero_nans(), inner.gradient_transformation())


if __name__ == "__main__":
    tx = build(OptimSettings())
    theta = jnp.zeros(())
    state = tx.init(theta)
    for b in [jnp.array([3.0, jnp.nan])] + [jnp.array([3.0, 3.0])] * 10:
        g = jax.grad(lambda t: jnp.mean((t - b) ** 2))(theta)
        updates, state = tx.update(g, state, theta)
        theta = optax.apply_updates(theta, updates)
    print("theta", float(theta))
    assert float(theta) > 1.0
    print("OK")
