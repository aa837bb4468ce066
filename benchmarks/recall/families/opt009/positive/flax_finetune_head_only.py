# recall-case: positive
# rule: OPT009
# source: https://github.com/google-deepmind/optax/issues/159
# source: https://github.com/google-deepmind/optax/issues/290
# shown: backbone kernel moved 5.77e+01 (should stay frozen); HAZARD: raw gradients added to the masked-out leaves
# style: Flax linen fine-tuning, mask dict built from the param tree, TrainState with the masked optimizer
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax
from flax import traverse_util
from flax.training import train_state


class Model(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.relu(nn.Dense(8, name="backbone")(x))
        return nn.Dense(1, name="head")(h)


def trainable_mask(params):
    flat = traverse_util.flatten_dict(params)
    return traverse_util.unflatten_dict({k: k[0] == "head" for k in flat})


def create_state(key, lr=1e-3):
    model = Model()
    params = model.init(key, jnp.ones((1, 4)))["params"]
    tx = optax.masked(optax.adam(lr), trainable_mask(params))  # expect
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)


@jax.jit
def step(state, x, y):
    grads = jax.grad(lambda p: jnp.mean((state.apply_fn({"params": p}, x) - y) ** 2))(state.params)
    return state.apply_gradients(grads=grads)


if __name__ == "__main__":
    state = create_state(jax.random.key(0))
    k0 = state.params["backbone"]["kernel"]
    x, y = jnp.ones((8, 4)), jnp.full((8, 1), 5.0)
    for _ in range(3):
        state = step(state, x, y)
    moved = float(jnp.abs(state.params["backbone"]["kernel"] - k0).max())
    print(f"backbone kernel moved {moved:.2e} (should stay frozen)")
    if moved > 0:
        print("HAZARD: optax.masked passes the raw gradient through for masked-out leaves; apply_updates adds it")
