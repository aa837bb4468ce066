# recall-case: positive
# rule: OPT016
# source: https://github.com/facebookresearch/schedule_free/issues/15
# shown: AttributeError: 'tuple' object has no attribute 'b1'
# style: config dataclass defaults, parts in a list, chain(*txs), eval helper called from two places
import dataclasses

import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class Config:
    lr: float = 1e-3
    warmup: int = 10
    grad_clip: float = 1.0
    zero_nan_grads: bool = True


def build(cfg: Config):
    txs = []
    if cfg.zero_nan_grads:
        txs.append(optax.zero_nans())
    if cfg.grad_clip:
        txs.append(optax.clip_by_global_norm(cfg.grad_clip))
    txs.append(optax.contrib.schedule_free_adamw(cfg.lr, warmup_steps=cfg.warmup))
    return optax.chain(*txs)


def eval_params_of(state, params):
    return optax.contrib.schedule_free_eval_params(state, params)  # expect


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] - y) ** 2)


def validate(state, params, x, y):
    return loss_fn(eval_params_of(state, params), x, y)


def checkpoint(state, params):
    return {"params": eval_params_of(state, params)}


if __name__ == "__main__":
    cfg = Config()
    tx = build(cfg)
    params = {"w": jnp.zeros((4, 1))}
    state = tx.init(params)
    x = jnp.ones((8, 4))
    y = jnp.ones((8, 1))
    for _ in range(5):
        updates, state = tx.update(jax.grad(loss_fn)(params, x, y), state, params)
        params = optax.apply_updates(params, updates)
    print(validate(state, params, x, y))
    checkpoint(state, params)
    print("HAZARD: no error (not expected)")
