# recall-case: positive
# rule: OPT003
# source: https://github.com/patrick-kidger/equinox/issues/69
# shown: HAZARD: TypeError zeros_like requires ndarray or scalar arguments, got <class 'jax._src.custom_derivatives.custom_jvp'> at position 0.
# style: config dataclass naming the optimizer (class default "adabelief"), optimizer looked up in a dict, eqx.nn.Sequential with an activation
import dataclasses

import jax
import jax.numpy as jnp
import equinox as eqx
import optax


@dataclasses.dataclass
class Config:
    optimizer: str = "adabelief"
    lr: float = 1e-3
    width: int = 32


OPTIMIZERS = {"adabelief": optax.adabelief, "adam": optax.adam, "sgd": optax.sgd}


def build_model(cfg, key):
    k1, k2 = jax.random.split(key)
    return eqx.nn.Sequential([
        eqx.nn.Linear(1, cfg.width, key=k1),
        eqx.nn.Lambda(jax.nn.relu),
        eqx.nn.Linear(cfg.width, 1, key=k2),
    ])


def init_training(cfg, model):
    opt = OPTIMIZERS[cfg.optimizer](cfg.lr)
    return opt, opt.init(model)  # expect


if __name__ == "__main__":
    cfg = Config(lr=3e-3)
    model = build_model(cfg, jax.random.key(45))
    try:
        opt, state = init_training(cfg, model)
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("initialised")
