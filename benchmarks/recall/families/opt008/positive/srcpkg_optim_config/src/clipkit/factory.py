import optax


def make_tx(cfg):
    base = optax.sgd(cfg.lr, momentum=cfg.momentum, nesterov=cfg.nesterov)
    if cfg.max_grad_norm is not None:
        # keep the step bounded
        return optax.chain(base, optax.clip_by_global_norm(cfg.max_grad_norm))
    return base
