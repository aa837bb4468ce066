# recall-case: positive
# rule: OPT012
# source: https://github.com/google-deepmind/optax/issues/1429
# shown: AttributeError: ... has no attribute 'fast' (lookahead switched on by the config default)
# style: config dataclass whose default reaches the optimizer factory, parts assembled in a list
import dataclasses

import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class OptimConfig:
    learning_rate: float = 3e-3
    max_grad_norm: float = 1.0
    lookahead_steps: int = 6  # 0 disables lookahead


def build_optimizer(cfg: OptimConfig) -> optax.GradientTransformation:
    txs = []
    if cfg.max_grad_norm:
        txs.append(optax.clip_by_global_norm(cfg.max_grad_norm))
    txs.append(optax.adamw(cfg.learning_rate))
    tx = optax.chain(*txs)
    if cfg.lookahead_steps:
        tx = optax.lookahead(tx, sync_period=cfg.lookahead_steps, slow_step_size=0.5)
    return tx


def init_params(key):
    k1, k2 = jax.random.split(key)
    return {"w": jax.random.normal(k1, (4, 2)), "b": jnp.zeros(2)}


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def fit(cfg: OptimConfig, steps: int = 10):
    params = init_params(jax.random.key(0))
    tx = build_optimizer(cfg)
    opt_state = tx.init(params)
    x = jnp.ones((8, 4))
    y = jnp.zeros((8, 2))

    @jax.jit
    def train_step(params, opt_state):
        grads = jax.grad(loss_fn)(params, x, y)
        updates, opt_state = tx.update(grads, opt_state, params)  # expect
        return optax.apply_updates(params, updates), opt_state

    for _ in range(steps):
        params, opt_state = train_step(params, opt_state)
    return params


if __name__ == "__main__":
    fit(OptimConfig())
    print("HAZARD: no error (not expected)")
