# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/kazewong/flowMC/pull/148
# shown: KeyReuseError under jax_debug_key_reuse: the evolutionary optimiser's while_loop never advances its key
# style: config dataclass + jitted evolution-strategy optimiser written with lax.while_loop
import sys
from dataclasses import dataclass

import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


@dataclass(frozen=True)
class ESConfig:
    popsize: int = 8
    sigma: float = 0.3
    max_steps: int = 5


def objective(x):
    return jnp.sum((x - 1.0) ** 2, axis=-1)


def optimise(config, x0, key):
    def cond(carry):
        step, _, _ = carry
        return step < config.max_steps

    def body(carry):
        step, mean, key = carry
        candidates = mean + config.sigma * jax.random.normal(key, (config.popsize,) + mean.shape)  # expect
        best = candidates[jnp.argmin(objective(candidates))]
        return step + 1, best, key  # expect

    _, best, _ = jax.lax.while_loop(cond, body, (0, x0, key))  # expect
    return best


if __name__ == "__main__":
    try:
        print(jax.jit(optimise, static_argnums=0)(ESConfig(), jnp.zeros(2), jax.random.key(1)))
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
    print("no reuse detected")
