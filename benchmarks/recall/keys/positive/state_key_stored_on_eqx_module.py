# recall-case: positive
# rule: OPT020
# class: calls-and-state
# source: https://github.com/patrick-kidger/equinox/issues/498
# shown: KeyReuseError under jax_debug_key_reuse at the second training step; with it off, both steps drop the same units
# style: Equinox model that keeps its dropout key as a field, eqx.filter_jit training step
import sys

import equinox as eqx
import jax
import jax.numpy as jnp


class DropoutMLP(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout
    key: jax.Array

    def __init__(self, din, dout, *, key):
        init_key, self.key = jax.random.split(key)
        self.linear = eqx.nn.Linear(din, dout, key=init_key)
        self.dropout = eqx.nn.Dropout(0.5)

    def __call__(self, x):
        return self.dropout(self.linear(x), key=self.key)  # expect


@eqx.filter_jit
def hidden_mask(model, x):
    return model(x) != 0


def two_steps(model, x):
    first = hidden_mask(model, x)  # expect
    second = hidden_mask(model, x)  # expect
    return first, second


if __name__ == "__main__":
    x = jnp.ones(3)
    first, second = two_steps(DropoutMLP(3, 8, key=jax.random.key(0)), x)
    if bool(jnp.all(first == second)):
        print("HAZARD: both steps used the same dropout mask:", first.astype(int))
    jax.config.update("jax_debug_key_reuse", True)
    try:
        two_steps(DropoutMLP(3, 8, key=jax.random.key(0)), x)
    except jax.errors.KeyReuseError as err:
        print("HAZARD: KeyReuseError:", str(err).splitlines()[0])
        sys.exit(1)
