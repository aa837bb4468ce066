# recall-case: positive
# rule: OPT011
# source: https://github.com/patrick-kidger/equinox/issues/107
# source: https://github.com/patrick-kidger/equinox/issues/110
# shown: HAZARD: TypeError 'NoneType' object is not callable when sampling with the EMA weights (mlp.activation is None)
# style: src-layout package: EMA helpers in avgtools/ema.py update a tree_map over eqx.filter(model, eqx.is_array); the EMA tree is used as the model here
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

import jax
import jax.numpy as jnp
import equinox as eqx
import optax

from avgtools.ema import init_ema, update_ema
from avgtools.net import Denoiser

if __name__ == "__main__":
    model = Denoiser(jax.random.key(0))
    ema = init_ema(model)
    optim = optax.adam(1e-3)
    state = optim.init(eqx.filter(model, eqx.is_array))
    x = jnp.ones((8, 4))
    for _ in range(3):
        grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - 0.5) ** 2))(model)
        updates, state = optim.update(grads, state)
        model = eqx.apply_updates(model, updates)
        ema = update_ema(ema, model)
    try:
        samples = jax.vmap(ema)(x)  # expect
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print(samples.shape)
