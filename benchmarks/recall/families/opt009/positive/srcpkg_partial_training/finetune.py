# recall-case: positive
# rule: OPT009
# source: https://github.com/google-deepmind/optax/issues/159
# source: https://github.com/google-deepmind/optax/issues/290
# shown: encoder moved 5.431e+00; loss 4.663 -> 49.405; HAZARD: raw gradient added to the leaves outside the mask
# style: src-layout package: masked optimizer built in tune/freeze.py, params in tune/model.py, jitted fine-tune loop here
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

import jax
import jax.numpy as jnp
import optax

from tune.freeze import partial_optimizer
from tune.model import apply, init_params

if __name__ == "__main__":
    params = init_params(jax.random.key(0))
    tx = partial_optimizer(optax.adam(1e-3), params)  # expect
    state = tx.init(params)
    x, y = jnp.ones((8, 3)), jnp.full((8, 1), 2.0)
    loss = lambda p: jnp.mean((apply(p, x) - y) ** 2)

    @jax.jit
    def step(p, s):
        u, s = tx.update(jax.grad(loss)(p), s, p)
        return optax.apply_updates(p, u), s

    p, s = params, state
    l0 = float(loss(p))
    for _ in range(5):
        p, s = step(p, s)
    moved = float(jnp.abs(p["encoder"]["w"] - params["encoder"]["w"]).max())
    print(f"encoder moved {moved:.3e}; loss {l0:.3f} -> {float(loss(p)):.3f}")
    if moved > 0:
        print("HAZARD: optax.masked adds the raw gradient to the leaves outside the mask")
