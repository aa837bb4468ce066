from dataclasses import dataclass


@dataclass
class OptimConfig:
    lr: float = 1e-2
    momentum: float = 0.9
    nesterov: bool = True
    max_grad_norm: float = 1.0
