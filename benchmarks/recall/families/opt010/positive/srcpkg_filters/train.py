# recall-case: positive
# rule: OPT010
# source: https://github.com/patrick-kidger/equinox/issues/772
# source: https://github.com/patrick-kidger/equinox/issues/681
# shown: HAZARD: ValueError pytree structure error: different types at key path
# style: src-layout package: the filter (eqx.is_array_like) is a module constant in seqmodel/filters.py, Dropout layer in seqmodel/layers.py
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

import jax
import jax.numpy as jnp
import equinox as eqx
import optax

from seqmodel.filters import split_params
from seqmodel.layers import FeedForward

if __name__ == "__main__":
    model = FeedForward(8, 32, 0.1, jax.random.key(0))
    params, static = split_params(model)
    optim = optax.lion(1e-4)
    opt_state = optim.init(params)  # expect
    x = jnp.ones((8,))
    try:
        grads = eqx.filter_grad(lambda m: jnp.sum(m(x, jax.random.key(1)) ** 2))(model)
        updates, opt_state = optim.update(grads, opt_state, params)
    except (ValueError, TypeError) as e:
        print("HAZARD:", type(e).__name__, str(e).splitlines()[0][:160])
        raise SystemExit(1)
    print("updated")
