# recall-case: positive
# rule: OPT017
# source: https://github.com/google-deepmind/optax/pull/877
# shown: HAZARD: reduce_on_plateau scale 1e-09 but lion's step size is unchanged (ratio 1.00)
# style: config dataclass, parts appended to a list, chain(*txs), helper called per epoch
import dataclasses

import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class OptimConfig:
    name: str = "lion"
    lr: float = 1e-4
    plateau_patience: int = 3
    plateau_factor: float = 0.1
    clip: float = 1.0


def build(cfg: OptimConfig):
    txs = []
    if cfg.clip:
        txs.append(optax.clip_by_global_norm(cfg.clip))
    if cfg.plateau_patience:
        txs.append(optax.contrib.reduce_on_plateau(factor=cfg.plateau_factor, patience=cfg.plateau_patience))
    txs.append(getattr(optax, cfg.name)(cfg.lr))
    return optax.chain(*txs)  # expect


def train_epoch(tx, params, state, x, y, val_loss):
    sizes = []
    for _ in range(5):
        grads = jax.grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)
        updates, state = tx.update(grads, state, params, value=val_loss)
        params = optax.apply_updates(params, updates)
        sizes.append(float(jnp.abs(updates).max()))
    return params, state, sizes


if __name__ == "__main__":
    tx = build(OptimConfig())
    params = jnp.zeros((4, 1))
    state = tx.init(params)
    x = jnp.ones((8, 4))
    y = jnp.ones((8, 1)) * 100.0
    history = []
    for epoch in range(6):
        params, state, sizes = train_epoch(tx, params, state, x, y, jnp.asarray(2.0))
        history += sizes
    scale = float(optax.tree.get(state, "scale"))
    ratio = history[-1] / history[0]
    print(f"HAZARD: reduce_on_plateau scale {scale:.2g} but lion's step size is unchanged (ratio {ratio:.2f})"
          if ratio > 2 * scale else "OK")
