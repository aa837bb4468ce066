# recall-case: negative
# rule: OPT013
# source: https://github.com/google-deepmind/optax/issues/296
# shown: OK frozen encoder unchanged
# style: trainer class, Flax linen, freeze before a plain adam (no weight decay anywhere)
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax import traverse_util


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2, name="classifier")(nn.relu(nn.Dense(8, name="encoder")(x)))


class FineTuner:
    def __init__(self, model, params, lr: float = 1e-3):
        self.model = model
        self.params = params
        flat = traverse_util.flatten_dict(params)
        frozen = traverse_util.unflatten_dict({k: k[1] == "encoder" for k in flat})
        self.tx = optax.chain(optax.freeze(frozen), optax.adam(lr))
        self.opt_state = self.tx.init(params)

    def step(self, x, y):
        def loss(p):
            return optax.softmax_cross_entropy_with_integer_labels(self.model.apply(p, x), y).mean()

        grads = jax.grad(loss)(self.params)
        updates, self.opt_state = self.tx.update(grads, self.opt_state, self.params)
        self.params = optax.apply_updates(self.params, updates)


if __name__ == "__main__":
    model = Net()
    x = jax.random.normal(jax.random.key(0), (16, 4))
    y = jnp.arange(16) % 2
    params = model.init(jax.random.key(1), x)
    tuner = FineTuner(model, params)
    for _ in range(20):
        tuner.step(x, y)
    same = bool(jnp.all(tuner.params["params"]["encoder"]["kernel"] == params["params"]["encoder"]["kernel"]))
    assert same
    print("OK frozen encoder unchanged")
