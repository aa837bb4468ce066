# recall-case: positive
# rule: OPT014
# source: https://github.com/google-deepmind/optax/issues/308
# source: https://github.com/google-deepmind/optax/issues/364
# shown: HAZARD: conv kernel norm x1.11 after 200 steps with weight_decay=5e-4 (should shrink)
# style: config dataclass defaults, optimizer parts appended to a list, chain(*txs), SGD+momentum
import dataclasses

import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class Config:
    learning_rate: float = 0.1
    momentum: float = 0.9
    weight_decay: float = 5e-4
    grad_clip: float = 0.0


def build_tx(cfg: Config):
    txs = []
    if cfg.grad_clip > 0:
        txs.append(optax.clip_by_global_norm(cfg.grad_clip))
    txs.append(optax.sgd(cfg.learning_rate, momentum=cfg.momentum))
    if cfg.weight_decay > 0:
        txs.append(optax.add_decayed_weights(cfg.weight_decay))
    return optax.chain(*txs)  # expect


def init_params(key):
    return {"kernel": jax.random.normal(key, (3, 3, 1, 4)), "bias": jnp.zeros(4)}


def forward(params, images):
    y = jax.lax.conv_general_dilated(images, params["kernel"], (1, 1), "SAME",
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return (y + params["bias"]).mean(axis=(1, 2))


def loss_fn(params, images, labels):
    return optax.softmax_cross_entropy_with_integer_labels(forward(params, images), labels).mean()


if __name__ == "__main__":
    cfg = Config()
    params = init_params(jax.random.key(0))
    tx = build_tx(cfg)
    state = tx.init(params)
    images = jnp.zeros((4, 6, 6, 1))  # blank batch: no gradient reaches the kernel
    labels = jnp.array([0, 1, 2, 3])
    n0 = jnp.linalg.norm(params["kernel"])
    step = jax.jit(lambda p, s: tx.update(jax.grad(loss_fn)(p, images, labels), s, p))
    for _ in range(200):
        updates, state = step(params, state)
        params = optax.apply_updates(params, updates)
    r = float(jnp.linalg.norm(params["kernel"]) / n0)
    print(f"HAZARD: conv kernel norm x{r:.2f} after 200 steps with weight_decay=5e-4 (should shrink)" if r > 1 else "OK")
