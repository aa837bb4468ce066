from typing import NamedTuple


class TrainConfig(NamedTuple):
    lr: float = 5e-2
    weight_decay: float = 0.2
    b1: float = 0.9
