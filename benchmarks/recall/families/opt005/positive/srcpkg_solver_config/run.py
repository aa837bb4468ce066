# recall-case: positive
# rule: OPT005
# source: https://github.com/patrick-kidger/optimistix/issues/121
# source: https://github.com/google/flax/issues/4144
# shown: HAZARD: TypeError scale_by_zoom_linesearch.<locals>.update_fn() missing 3 required keyword-only arguments: 'value', 'grad', and 'value_fn'
# style: src-layout package: NamedTuple settings default to "lbfgs", solver table in calib/solvers.py, generic loop in calib/loop.py updates without value/grad/value_fn
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

import jax.numpy as jnp

from calib.loop import calibrate
from calib.settings import SolverSettings
from calib.solvers import get_solver


def misfit(theta):
    obs = jnp.array([1.0, 2.0, 3.0])
    return jnp.sum((theta[0] * jnp.arange(1.0, 4.0) + theta[1] - obs) ** 2)


if __name__ == "__main__":
    settings = SolverSettings()
    try:
        theta = calibrate(get_solver(settings), misfit, jnp.zeros(2), settings.steps)  # expect
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print(theta)
