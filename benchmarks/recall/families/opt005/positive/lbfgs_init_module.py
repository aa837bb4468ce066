# recall-case: positive
# rule: OPT005
# source: https://github.com/google-deepmind/optax/issues/1017
# source: https://github.com/patrick-kidger/equinox/issues/796
# shown: HAZARD: AttributeError 'jaxlib._jax.PjitFunction' object has no attribute 'shape' (lbfgs.init on the whole module)
# style: swap Adam for L-BFGS in an Equinox fitting script, config dataclass selects the solver
import dataclasses

import jax
import jax.numpy as jnp
import equinox as eqx
import optax


@dataclasses.dataclass
class FitConfig:
    solver: str = "lbfgs"
    lr: float = 1e-3
    steps: int = 5


def make_solver(cfg):
    if cfg.solver == "lbfgs":
        return optax.lbfgs()
    return optax.adam(cfg.lr)


def fit(cfg, model, x, y):
    solver = make_solver(cfg)
    state = solver.init(model)  # expect
    loss = lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2)
    for _ in range(cfg.steps):
        value, grads = eqx.filter_value_and_grad(loss)(model)
        updates, state = solver.update(grads, state, model, value=value, grad=grads, value_fn=loss)
        model = eqx.apply_updates(model, updates)
    return model


if __name__ == "__main__":
    model = eqx.nn.MLP(1, 1, 8, 2, activation=jax.nn.tanh, key=jax.random.key(0))
    x = jnp.linspace(0, 1, 16)[:, None]
    try:
        fit(FitConfig(), model, x, jnp.sin(x))
    except AttributeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("fitted")
