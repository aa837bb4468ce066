# recall-case: positive
# rule: OPT021
# source: https://github.com/patrick-kidger/equinox/issues/502
# source: https://github.com/patrick-kidger/equinox/pull/503
# shown: TypeError: Functions wrapped with `equinox.filter_{grad, value_and_grad}` must have their first argument passed by position ...
# style: config dataclass, functools.partial binding config values, filter_jit step
import dataclasses
import functools

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class Config:
    lr: float = 1e-3
    l2: float = 1e-4


def regularised_loss(params, x, y, l2):
    pred = jax.vmap(params)(x)
    reg = sum(jnp.sum(p**2) for p in jax.tree_util.tree_leaves(eqx.filter(params, eqx.is_array)))
    return jnp.mean((pred - y) ** 2) + l2 * reg


def make_step(cfg: Config, optim):
    grad_fn = eqx.filter_grad(functools.partial(regularised_loss, l2=cfg.l2))

    @eqx.filter_jit
    def step(model, opt_state, x, y):
        grads = grad_fn(params=model, x=x, y=y)  # expect
        updates, opt_state = optim.update(grads, opt_state)
        return eqx.apply_updates(model, updates), opt_state

    return step


if __name__ == "__main__":
    cfg = Config()
    optim = optax.sgd(cfg.lr)
    model = eqx.nn.Linear(2, 1, key=jax.random.key(0))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    step = make_step(cfg, optim)
    model, opt_state = step(model, opt_state, jnp.ones((4, 2)), jnp.zeros((4, 1)))
    print("HAZARD: no error (not expected)")
