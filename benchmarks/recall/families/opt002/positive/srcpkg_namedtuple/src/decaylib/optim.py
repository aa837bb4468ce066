import optax

from .masks import matrices_only


def make_optimizer(cfg):
    # inject so the trainer can log and change the learning rate
    return optax.inject_hyperparams(optax.adamw)(
        learning_rate=cfg.lr, b1=cfg.b1, weight_decay=cfg.weight_decay, mask=matrices_only
    )
