"""Optimizers built from a config dict, as the training script's YAML describes them."""

import optax

from trainer.model import Classifier, decay_mask


def weight_decay_mask(params):
    return jax_tree_is_matrix(params)


def jax_tree_is_matrix(params):
    import jax

    return jax.tree_util.tree_map(lambda p: getattr(p, "ndim", 0) == 2, params)


def make_optimizer(config: dict, model: Classifier) -> optax.GradientTransformation:
    name = config["optimizer"]
    if name == "adamw":
        return optax.adamw(config["lr"], weight_decay=config["wd"], mask=decay_mask(model))
    if name == "adamw-scheduled":
        schedule = optax.cosine_decay_schedule(config["lr"], config["steps"])
        return optax.inject_hyperparams(optax.adamw)(
            learning_rate=schedule, weight_decay=config["wd"], mask=weight_decay_mask
        )
    if name == "accumulated":
        inner = optax.chain(optax.zero_nans(), optax.clip_by_global_norm(1.0),
                            optax.adam(config["lr"]))
        return optax.MultiSteps(inner, every_k_schedule=config["accumulate"])
    if name == "frozen-head":
        labels = jax_tree_labels(model)
        return optax.multi_transform({"train": optax.adam(config["lr"]),
                                      "freeze": optax.set_to_zero()}, labels)
    raise ValueError(f"unknown optimizer {name!r}")


def jax_tree_labels(model: Classifier) -> Classifier:
    import jax

    return jax.tree_util.tree_map(lambda _: "train", model)
