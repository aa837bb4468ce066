from dataclasses import dataclass

import optax


@dataclass
class OptimSettings:
    lr: float = 0.1
    skip_nan_grads: bool = True
    micro_batches: int = 2


def gradient_pipeline(s: OptimSettings):
    parts = [optax.zero_nans()] if s.skip_nan_grads else []
    return optax.chain(*parts, optax.sgd(s.lr, momentum=0.9))


def build(s: OptimSettings):
    tx = gradient_pipeline(s)
    if s.micro_batches > 1:
        tx = optax.MultiSteps(tx, every_k_schedule=s.micro_batches)
    return tx
