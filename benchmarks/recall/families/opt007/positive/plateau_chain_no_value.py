# recall-case: positive
# rule: OPT007
# source: https://github.com/google-deepmind/optax/issues/679
# shown: HAZARD: TypeError ... update_fn() missing 1 required keyword-only argument: 'value'
# style: Flax linen + TrainState; reduce_on_plateau chained after adam from a config dataclass; state.apply_gradients does not pass value
import dataclasses

import jax
import jax.numpy as jnp
import flax.linen as nn
import optax
from flax.training import train_state


@dataclasses.dataclass
class Config:
    lr: float = 1e-2
    plateau_patience: int = 5
    plateau_factor: float = 0.5


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


def create_state(cfg, key):
    model = Net()
    params = model.init(key, jnp.ones((1, 2)))["params"]
    tx = optax.chain(
        optax.adam(cfg.lr),
        optax.contrib.reduce_on_plateau(factor=cfg.plateau_factor, patience=cfg.plateau_patience),
    )
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)


@jax.jit
def train_step(state, x, y):
    loss, grads = jax.value_and_grad(lambda p: jnp.mean((state.apply_fn({"params": p}, x) - y) ** 2))(state.params)
    return state.apply_gradients(grads=grads), loss  # expect


if __name__ == "__main__":
    state = create_state(Config(), jax.random.key(0))
    try:
        state, loss = train_step(state, jnp.ones((4, 2)), jnp.zeros((4, 1)))
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("loss", loss)
