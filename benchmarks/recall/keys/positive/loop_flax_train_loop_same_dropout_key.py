# recall-case: positive
# rule: OPT020
# class: loop
# source: https://github.com/google/flax/pull/2631
# shown: the dropout masks of step 0 and step 1 are identical (jax_debug_key_reuse stays silent on this Flax code)
# style: Flax linen + optax TrainState, jitted train_step called from a Python loop
import sys

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax.training import train_state


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x, training: bool):
        x = nn.relu(nn.Dense(16)(x))
        x = nn.Dropout(rate=0.5, deterministic=not training)(x)
        self.sow("intermediates", "after_dropout", x)
        return nn.Dense(1)(x)


@jax.jit
def train_step(state, batch, dropout_key):
    def loss_fn(params):
        out, inter = state.apply_fn({"params": params}, batch["x"], training=True,
                                    rngs={"dropout": dropout_key}, mutable=["intermediates"])
        return jnp.mean((out - batch["y"]) ** 2), inter["intermediates"]["after_dropout"][0]

    (loss, hidden), grads = jax.value_and_grad(loss_fn, has_aux=True)(state.params)
    return state.apply_gradients(grads=grads), hidden != 0


def train_loop(num_steps):
    root_key = jax.random.key(0)
    main_key, params_key, dropout_key = jax.random.split(root_key, 3)
    model = MLP()
    x = jnp.ones((4, 3))
    params = model.init(params_key, x, training=False)["params"]
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(1e-3))
    batch = {"x": x, "y": jnp.zeros((4, 1))}
    masks = []
    for step in range(num_steps):
        state, mask = train_step(state, batch, dropout_key)  # expect
        masks.append(mask)
    return masks


if __name__ == "__main__":
    masks = train_loop(2)
    if bool(jnp.all(masks[0] == masks[1])):
        print("HAZARD: step 0 and step 1 used identical dropout masks")
        sys.exit(1)
    print("masks differ")
