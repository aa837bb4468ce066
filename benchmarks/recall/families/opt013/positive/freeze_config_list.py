# recall-case: positive
# rule: OPT013
# source: https://github.com/google-deepmind/optax/issues/296
# source: https://github.com/apache/mxnet/issues/12392
# shown: HAZARD: frozen embedding row moved (max |delta| 0.1227) though freeze_embeddings=True
# style: config dataclass defaults, parts assembled in a list, chain(*txs)
import dataclasses

import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class TrainConfig:
    lr: float = 1e-3
    weight_decay: float = 0.1
    freeze_embeddings: bool = True
    clip_norm: float = 1.0


def make_tx(cfg: TrainConfig, params) -> optax.GradientTransformation:
    txs = []
    if cfg.clip_norm:
        txs.append(optax.clip_by_global_norm(cfg.clip_norm))
    if cfg.freeze_embeddings:
        mask = jax.tree_util.tree_map_with_path(
            lambda path, _: path[0].key == "embed", params
        )
        txs.append(optax.freeze(mask))
    txs.append(optax.adamw(cfg.lr, weight_decay=cfg.weight_decay))
    return optax.chain(*txs)  # expect


def init(key):
    k1, k2 = jax.random.split(key)
    return {"embed": jax.random.normal(k1, (10, 4)), "out": jax.random.normal(k2, (4, 10)) * 0.1}


def loss_fn(params, tokens):
    h = params["embed"][tokens]
    logits = h @ params["out"]
    return optax.softmax_cross_entropy_with_integer_labels(logits, tokens).mean()


if __name__ == "__main__":
    cfg = TrainConfig()
    params = init(jax.random.key(0))
    start = params["embed"]
    tx = make_tx(cfg, params)
    state = tx.init(params)
    tokens = jnp.array([1, 2, 3, 4])
    for _ in range(500):
        g = jax.grad(loss_fn)(params, tokens)
        u, state = tx.update(g, state, params)
        params = optax.apply_updates(params, u)
    delta = float(jnp.abs(params["embed"] - start).max())
    print(f"HAZARD: frozen embedding row moved (max |delta| {delta:.4f}) though freeze_embeddings=True" if delta else "OK")
