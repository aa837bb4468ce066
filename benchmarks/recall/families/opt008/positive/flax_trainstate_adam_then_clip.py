# recall-case: positive
# rule: OPT008
# source: https://github.com/sanchit-gandhi/seq2seq-speech/pull/7
# source: https://github.com/google-deepmind/optax/issues/364
# shown: max |ours - no clip| = 3.73e-09; max |clip first - no clip| = 1.41e-02; HAZARD: clip after adam never fired on a gradient spike
# style: Flax linen + TrainState.create in a create_train_state helper, jitted step, a loss spike from one bad batch
import jax
import jax.numpy as jnp
import flax.linen as nn
import optax
from flax.training import train_state


class Predictor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.relu(nn.Dense(8)(x)))


def create_train_state(rng, learning_rate, tx=None):
    model = Predictor()
    params = model.init(rng, jnp.ones((1, 3)))["params"]
    if tx is None:
        tx = optax.chain(optax.adam(learning_rate), optax.clip_by_global_norm(1.0))  # expect
    return train_state.TrainState.create(apply_fn=model.apply, params=params, tx=tx)


@jax.jit
def train_step(state, x, y):
    grads = jax.grad(lambda p: jnp.mean((state.apply_fn({"params": p}, x) - y) ** 2))(state.params)
    return state.apply_gradients(grads=grads)


def train(tx=None):
    state = create_train_state(jax.random.key(0), 1e-2, tx)
    x = jnp.ones((4, 3))
    for target in (1.0, 1.0, 1e4, 1.0, 1.0):  # one corrupted target
        state = train_step(state, x, jnp.full((4, 1), target))
    return state.params


if __name__ == "__main__":
    ours = train()
    unclipped = train(optax.adam(1e-2))
    clip_first = train(optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-2)))
    diff = lambda a, b: max(float(jnp.abs(u - v).max()) for u, v in zip(jax.tree_util.tree_leaves(a), jax.tree_util.tree_leaves(b)))
    print(f"max |ours - no clip| = {diff(ours, unclipped):.2e}; max |clip first - no clip| = {diff(clip_first, unclipped):.2e}")
    if diff(ours, unclipped) < 1e-6 < diff(clip_first, unclipped):
        print("HAZARD: clip_by_global_norm after adam clips the (small) updates, never the gradients")
