# recall-case: positive
# rule: OPT006
# source: https://github.com/patrick-kidger/equinox/issues/570
# source: https://github.com/patrick-kidger/equinox/issues/1127
# shown: HAZARD: TypeError Error interpreting argument to <function sgd_step ...> as an abstract array ... at path model.activation
# style: src-layout package: model factory in regress/models.py, jax.jit(sgd_step) module-level in regress/steps.py, called here
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

import jax
import jax.numpy as jnp

from regress.models import make_model
from regress.steps import train_step

if __name__ == "__main__":
    model = make_model(jax.random.key(0))
    x = jax.random.normal(jax.random.key(1), (16, 3))
    y = jnp.sum(x, axis=1, keepdims=True)
    try:
        for _ in range(3):
            model = train_step(model, x, y)  # expect
    except TypeError as e:
        print("HAZARD:", type(e).__name__, str(e).splitlines()[0][:200])
        raise SystemExit(1)
    print("trained")
