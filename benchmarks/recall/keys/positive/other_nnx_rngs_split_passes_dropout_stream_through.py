# recall-case: positive
# rule: OPT020
# class: other-library
# source: https://github.com/google/flax/pull/5529
# shown: after `rngs.split({"params": 3, "dropout": None})` the fine-tuning steps draw the same dropout masks as the first pre-training steps (the passed-through dropout stream restarts its counter; flax 0.12.8)
# style: flax.nnx two-stage script: pre-train a backbone with dropout, then fit a vmapped ensemble of heads with nnx.vmap / StateAxes on the same nnx.Rngs
"""Pre-train a backbone, then fit an ensemble of linear heads on top of it."""
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import optax
from flax import nnx


@dataclass
class Config:
    in_dim: int = 6
    hidden: int = 16
    ensemble_size: int = 3
    pretrain_steps: int = 2
    finetune_steps: int = 2
    dropout: float = 0.5
    lr: float = 1e-2


class Backbone(nnx.Module):
    def __init__(self, cfg: Config, *, rngs: nnx.Rngs):
        self.linear = nnx.Linear(cfg.in_dim, cfg.hidden, rngs=rngs)
        self.dropout = nnx.Dropout(cfg.dropout)
        self.out = nnx.Linear(cfg.hidden, 1, rngs=rngs)

    def features(self, x: jax.Array, rngs: nnx.Rngs) -> tuple[jax.Array, jax.Array]:
        h = nnx.gelu(self.linear(x))
        dropped = self.dropout(h, rngs=rngs)
        return dropped, dropped != 0

    def __call__(self, x: jax.Array, rngs: nnx.Rngs) -> tuple[jax.Array, jax.Array]:
        h, keep = self.features(x, rngs)
        return self.out(h), keep


@nnx.jit
def pretrain_step(model: Backbone, optimizer: nnx.Optimizer, x, y, rngs: nnx.Rngs):
    def loss_fn(model, rngs):
        pred, keep = model(x, rngs)
        return jnp.mean((pred[:, 0] - y) ** 2), keep

    (loss, keep), grads = nnx.value_and_grad(loss_fn, has_aux=True)(model, rngs)
    optimizer.update(model, grads)
    return loss, keep


def make_heads(cfg: Config, rngs: nnx.Rngs) -> nnx.Linear:
    state_axes = nnx.StateAxes({"params": 0, ...: None})
    return nnx.vmap(lambda r: nnx.Linear(cfg.hidden, 1, rngs=r), in_axes=(state_axes,), out_axes=0)(rngs)


def main() -> None:
    cfg = Config()
    data_key = jax.random.key(42)
    kx, kw = jax.random.split(data_key)
    x = jax.random.normal(kx, (8, cfg.in_dim))
    y = x @ jax.random.normal(kw, (cfg.in_dim,))

    rngs = nnx.Rngs(params=0, dropout=1)
    backbone = Backbone(cfg, rngs=rngs)
    optimizer = nnx.Optimizer(backbone, optax.adam(cfg.lr), wrt=nnx.Param)
    pretrain_masks = []
    for step in range(cfg.pretrain_steps):
        loss, keep = pretrain_step(backbone, optimizer, x, y, rngs)  # expect
        pretrain_masks.append(keep)
        print(f"pretrain step {step}: loss {float(loss):.3f}")

    # One key per ensemble member for the heads; dropout keeps a single stream.
    head_rngs = rngs.split({"params": cfg.ensemble_size, "dropout": None})  # expect
    heads = make_heads(cfg, head_rngs)

    finetune_masks = []
    for step in range(cfg.finetune_steps):
        feats, keep = backbone.features(x, head_rngs)  # expect
        preds = jnp.einsum("bh,ehk->ebk", feats, heads.kernel[...]) + heads.bias[...][:, None]
        finetune_masks.append(keep)
        print(f"finetune step {step}: ensemble mse {float(jnp.mean((preds[..., 0] - y) ** 2)):.3f}")

    same = [bool(jnp.array_equal(a, b)) for a, b in zip(pretrain_masks, finetune_masks)]
    if all(same):
        print("HAZARD: every fine-tuning step reused the dropout mask of the matching pre-training step")


if __name__ == "__main__":
    main()
