# recall-case: positive
# rule: OPT003
# source: https://github.com/patrick-kidger/equinox/issues/613
# source: https://github.com/patrick-kidger/equinox/issues/364
# shown: HAZARD: TypeError zeros_like requires ndarray or scalar arguments, got <class 'jax._src.custom_derivatives.custom_jvp'> at position 0.
# style: filter written by hand that drops "functions" with types.FunctionType; jax.nn.relu is a custom_jvp object and slips through
import types

import jax
import jax.numpy as jnp
import equinox as eqx
import optax


def trainable(model):
    return eqx.filter(model, lambda leaf: not isinstance(leaf, types.FunctionType))


if __name__ == "__main__":
    model = eqx.nn.MLP(5, 5, 5, 2, activation=jax.nn.relu, key=jax.random.key(1234))
    optim = optax.adam(1e-4)
    try:
        opt_state = optim.init(trainable(model))  # expect
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("initialised")
