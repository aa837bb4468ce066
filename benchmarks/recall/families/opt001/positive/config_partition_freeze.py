# recall-case: positive
# rule: OPT001
# source: https://github.com/google-deepmind/optax/issues/296
# source: https://github.com/patrick-kidger/equinox/issues/266
# shown: TypeError: unsupported operand type(s) for @: 'str' and 'Classifier' at init (optax.partition calls the module-shaped labels)
# style: config dataclass with class defaults reached through a parameter, optax.partition to freeze a sub-network
import dataclasses

import jax
import jax.numpy as jnp
import equinox as eqx
import optax


@dataclasses.dataclass
class FinetuneConfig:
    lr: float = 1e-3
    freeze_backbone: bool = True
    steps: int = 5


class Classifier(eqx.Module):
    backbone: eqx.nn.MLP
    head: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.backbone = eqx.nn.MLP(4, 6, 6, 1, key=k1)
        self.head = eqx.nn.Linear(6, 2, key=k2)

    def __call__(self, x):
        return self.head(self.backbone(x))


def label_tree(model, cfg):
    params = eqx.filter(model, eqx.is_array)
    labels = jax.tree_util.tree_map(lambda _: "train", params)
    if cfg.freeze_backbone:
        frozen = jax.tree_util.tree_map(lambda _: "frozen", labels.backbone)
        labels = eqx.tree_at(lambda t: t.backbone, labels, frozen)
    return labels


def build_optimizer(cfg, model):
    return optax.partition(  # expect
        {"train": optax.adam(cfg.lr), "frozen": optax.set_to_zero()},
        label_tree(model, cfg),
    )


if __name__ == "__main__":
    cfg = FinetuneConfig(lr=3e-3)
    model = Classifier(jax.random.key(0))
    opt = build_optimizer(cfg, model)
    try:
        state = opt.init(eqx.filter(model, eqx.is_array))  # expect
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("initialised")
