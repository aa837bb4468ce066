# recall-case: negative
# rule: OPT014
# source: https://github.com/google-deepmind/optax/issues/417
# shown: OK kernel norm x0.99
# style: config dataclass, parts in a list, decoupled decay through adamw(weight_decay=...)
import dataclasses

import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class Config:
    learning_rate: float = 1e-3
    weight_decay: float = 0.05
    grad_clip: float = 1.0


def build_tx(cfg: Config):
    txs = []
    if cfg.grad_clip > 0:
        txs.append(optax.clip_by_global_norm(cfg.grad_clip))
    txs.append(optax.adamw(cfg.learning_rate, weight_decay=cfg.weight_decay))
    return optax.chain(*txs)


if __name__ == "__main__":
    params = {"kernel": jax.random.normal(jax.random.key(0), (4, 4)), "bias": jnp.zeros(4)}
    tx = build_tx(Config())
    state = tx.init(params)
    n0 = jnp.linalg.norm(params["kernel"])
    zero = jax.tree_util.tree_map(jnp.zeros_like, params)
    for _ in range(200):
        updates, state = tx.update(zero, state, params)
        params = optax.apply_updates(params, updates)
    r = float(jnp.linalg.norm(params["kernel"]) / n0)
    assert r < 1
    print(f"OK kernel norm x{r:.2f}")
