# recall-case: positive
# rule: OPT004
# source: https://github.com/google-deepmind/optax/issues/828
# shown: HAZARD: Dense kernel identical after 8 clean steps following one NaN micro-batch (zero_nans inside MultiSteps)
# style: Flax linen + TrainState.create(tx=...), MultiSteps(chain(zero_nans, adam)) built inline, jitted train_step
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax
from flax.training import train_state


class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.tanh(nn.Dense(4)(x)))


def create_state(key, lr, k):
    model = Regressor()
    params = model.init(key, jnp.ones((1, 2)))["params"]
    tx = optax.MultiSteps(optax.chain(optax.zero_nans(), optax.adam(lr)), every_k_schedule=k)  # expect
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)


@jax.jit
def train_step(state, x, y):
    def loss_fn(p):
        return jnp.mean((state.apply_fn({"params": p}, x) - y) ** 2)

    grads = jax.grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads)


if __name__ == "__main__":
    state = create_state(jax.random.key(0), 1e-2, 2)
    x, y = jnp.ones((4, 2)), jnp.ones((4, 1))
    state = train_step(state, x.at[1, 1].set(jnp.nan), y)
    k0 = state.params["Dense_1"]["kernel"]
    for _ in range(8):
        state = train_step(state, x, y)
    same = bool(jnp.all(state.params["Dense_1"]["kernel"] == k0))
    print("Dense_1 kernel unchanged after 8 clean steps:", same)
    if same:
        print("HAZARD: zero_nans inside MultiSteps: one NaN micro-batch stopped training for good")
