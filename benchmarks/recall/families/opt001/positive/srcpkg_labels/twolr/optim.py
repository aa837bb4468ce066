import optax

from .labels import param_labels


def build_tx(model, fast_lr=1e-2, slow_lr=1e-4):
    labels = param_labels(model)
    return optax.multi_transform(
        {"fast": optax.adamw(fast_lr), "slow": optax.adamw(slow_lr)}, labels
    )
