# recall-case: positive
# rule: OPT018
# source: https://github.com/google-deepmind/optax/issues/1532
# shown: HAZARD: 12 of 12 parameters are NaN after one step (dtype=bfloat16 from the config default)
# style: config dataclass default dtype, to_half helper casting with tree_map, parts in a list
import dataclasses

import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class TrainConfig:
    dtype: str = "bfloat16"
    lr: float = 1e-3
    clip: float = 1.0
    schedule_lr: bool = True


def to_dtype(params, dtype):
    return jax.tree_util.tree_map(lambda p: p.astype(dtype), params)


def make_optimizer(cfg: TrainConfig):
    txs = []
    if cfg.clip:
        txs.append(optax.clip_by_global_norm(cfg.clip))
    if cfg.schedule_lr:
        txs.append(optax.inject_hyperparams(optax.adam)(learning_rate=cfg.lr))  # expect
    else:
        txs.append(optax.adam(cfg.lr))
    return optax.chain(*txs)


def train(cfg: TrainConfig):
    params = {"w": jnp.linspace(-1.0, 1.0, 8).reshape(4, 2), "b": jnp.ones(4)}
    params = to_dtype(params, jnp.dtype(cfg.dtype))
    tx = make_optimizer(cfg)
    state = tx.init(params)
    grads = jax.tree_util.tree_map(lambda p: jnp.full_like(p, 0.5), params)
    updates, state = tx.update(grads, state, params)
    return optax.apply_updates(params, updates)


if __name__ == "__main__":
    params = train(TrainConfig())
    n_nan = sum(int(jnp.isnan(p).sum()) for p in jax.tree_util.tree_leaves(params))
    total = sum(p.size for p in jax.tree_util.tree_leaves(params))
    print(f"HAZARD: {n_nan} of {total} parameters are NaN after one step (dtype=bfloat16 from the config default)" if n_nan else "OK")
