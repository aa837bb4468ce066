from typing import NamedTuple


class SolverSettings(NamedTuple):
    name: str = "lbfgs"
    learning_rate: float = 1e-2
    steps: int = 10
