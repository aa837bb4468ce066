# recall-case: negative
# rule: OPT009
# source: https://github.com/google-deepmind/optax/issues/296
# shown: backbone kernel moved 0.00e+00, head trained (OK)
# style: Flax fine-tuning with multi_transform({"train": adam, "frozen": set_to_zero()}, labels)
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax
from flax import traverse_util
from flax.training import train_state


class Model(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1, name="head")(nn.relu(nn.Dense(8, name="backbone")(x)))


def labels(params):
    flat = traverse_util.flatten_dict(params)
    return traverse_util.unflatten_dict({k: "train" if k[0] == "head" else "frozen" for k in flat})


if __name__ == "__main__":
    model = Model()
    params = model.init(jax.random.key(0), jnp.ones((1, 4)))["params"]
    tx = optax.multi_transform({"train": optax.adam(1e-3), "frozen": optax.set_to_zero()}, labels(params))
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)

    @jax.jit
    def step(state, x, y):
        g = jax.grad(lambda p: jnp.mean((state.apply_fn({"params": p}, x) - y) ** 2))(state.params)
        return state.apply_gradients(grads=g)

    for _ in range(3):
        state = step(state, jnp.ones((8, 4)), jnp.full((8, 1), 5.0))
    moved = float(jnp.abs(state.params["backbone"]["kernel"] - params["backbone"]["kernel"]).max())
    head = float(jnp.abs(state.params["head"]["kernel"] - params["head"]["kernel"]).max())
    print(f"backbone moved {moved:.2e}, head moved {head:.2e}")
    assert moved == 0.0 and head > 0
    print("OK")
