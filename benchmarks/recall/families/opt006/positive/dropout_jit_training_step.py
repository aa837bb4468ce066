# recall-case: positive
# rule: OPT006
# source: https://github.com/patrick-kidger/equinox/issues/681
# shown: HAZARD: TracerBoolConversionError (Dropout's bool `inference` field is traced by jax.jit)
# style: module with only arrays plus eqx.nn.Dropout; functools.partial(jax.jit, static_argnums) on the optimizer, model traced
from functools import partial

import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class Block(eqx.Module):
    lin1: eqx.nn.Linear
    drop: eqx.nn.Dropout
    lin2: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.lin1 = eqx.nn.Linear(4, 16, key=k1)
        self.drop = eqx.nn.Dropout(0.1)
        self.lin2 = eqx.nn.Linear(16, 1, key=k2)

    def __call__(self, x, key):
        return self.lin2(self.drop(jnp.tanh(self.lin1(x)), key=key))


def compute_loss(model, x, y, keys):
    return jnp.mean((jax.vmap(model)(x, keys) - y) ** 2)


@partial(jax.jit, static_argnums=(4,))
def make_step(model, opt_state, x, y, optim, key):
    keys = jax.random.split(key, x.shape[0])
    loss, grads = eqx.filter_value_and_grad(compute_loss)(model, x, y, keys)
    updates, opt_state = optim.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, loss


if __name__ == "__main__":
    model = Block(jax.random.key(0))
    optim = optax.adam(1e-3)
    opt_state = optim.init(eqx.filter(model, eqx.is_inexact_array))
    try:
        make_step(model, opt_state, jnp.ones((4, 4)), jnp.zeros((4, 1)), optim, jax.random.key(1))  # expect
    except Exception as e:
        print("HAZARD:", type(e).__name__, str(e).splitlines()[0][:160])
        raise SystemExit(1)
    print("stepped")
