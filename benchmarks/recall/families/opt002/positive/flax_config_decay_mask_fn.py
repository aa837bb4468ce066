# recall-case: positive
# rule: OPT002
# source: https://github.com/google-deepmind/optax/issues/57
# source: https://github.com/google-deepmind/optax/commit/d56e6dd3c2c4c83c0bc06d7c4e12cb0a6f24e408
# shown: HAZARD: mask function called as a schedule at init: AssertionError expected (frozen)dict; got <class 'jaxlib._jax.ArrayImpl'>
# style: Flax linen, config dataclass with class defaults reached through build(cfg), HF-style decay_mask_fn
import dataclasses

import jax
import jax.numpy as jnp
import flax.linen as nn
import optax
from flax import traverse_util


@dataclasses.dataclass(frozen=True)
class OptimConfig:
    learning_rate: float = 1e-1
    weight_decay: float = 0.1
    warmup_steps: int = 2
    total_steps: int = 100


def decay_mask_fn(params):
    flat = traverse_util.flatten_dict(params)
    # no decay on biases and LayerNorm scales
    return traverse_util.unflatten_dict({k: k[-1] not in ("bias", "scale") for k in flat})


def build_optimizer(cfg: OptimConfig):
    schedule = optax.warmup_cosine_decay_schedule(0.0, cfg.learning_rate, cfg.warmup_steps, cfg.total_steps)
    return optax.inject_hyperparams(optax.adamw)(  # expect
        learning_rate=schedule, weight_decay=cfg.weight_decay, mask=decay_mask_fn
    )


class Block(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(4)(nn.LayerNorm()(x))


if __name__ == "__main__":
    cfg = OptimConfig()
    params = Block().init(jax.random.key(0), jnp.ones((1, 4)))["params"]
    params = jax.tree_util.tree_map(lambda p: jnp.ones_like(p), params)
    tx = build_optimizer(cfg)
    try:
        state = tx.init(params)
    except AssertionError as e:
        # inject_hyperparams called decay_mask_fn with the step count, not the params
        print("HAZARD: mask function called as a schedule at init:", type(e).__name__, e)
        raise SystemExit(1)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    p = params
    for _ in range(20):
        updates, state = tx.update(zeros, state, p)
        p = optax.apply_updates(p, updates)
    k = float(p["Dense_0"]["kernel"][0, 0])
    print(f"kernel after 20 zero-gradient steps {k:.4f}; hyperparams['mask'] = {state.hyperparams.get('mask')}")
    if k > 0.999:
        print("HAZARD: weight decay never applied (the mask function was called as a schedule)")
