# recall-case: positive
# rule: OPT002
# source: https://github.com/google-deepmind/optax/issues/57
# source: https://github.com/google-deepmind/optax/commit/d56e6dd3c2c4c83c0bc06d7c4e12cb0a6f24e408
# shown: HAZARD: matrix after 10 zero-gradient steps 1.0000, expected 0.9044 with weight_decay=0.2: decay silently off (hyperparams['mask'] = False)
# style: src-layout package (src/decaylib): NamedTuple config with defaults, factory in another module, mask function in a third
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

import jax
import jax.numpy as jnp
import optax

from decaylib.config import TrainConfig
from decaylib.optim import make_optimizer


def run(cfg, steps=10):
    params = {"dense": {"kernel": jnp.ones((3, 3)), "bias": jnp.ones(3)}}
    tx = make_optimizer(cfg)  # expect
    state = tx.init(params)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    for _ in range(steps):
        updates, state = tx.update(zeros, state, params)
        params = optax.apply_updates(params, updates)
    return params, state


if __name__ == "__main__":
    cfg = TrainConfig()
    params, state = run(cfg)
    k = float(params["dense"]["kernel"][0, 0])
    print(f"kernel after 10 zero-gradient steps {k:.4f}, expected {(1 - cfg.lr * cfg.weight_decay) ** 10:.4f}; mask = {state.hyperparams['mask']}")
    if k > 0.9999:
        print("HAZARD: weight decay silently off: the mask function was treated as a schedule")
