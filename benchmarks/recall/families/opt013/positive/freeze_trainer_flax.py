# recall-case: positive
# rule: OPT013
# source: https://github.com/google-deepmind/optax/issues/296
# source: https://github.com/google-deepmind/optax/pull/1274
# shown: HAZARD: frozen encoder kernel norm 1.000 -> 0.980 of its start
# style: trainer class, Flax linen, optimizer built in __init__ from a mask over the param tree
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax
from flax import traverse_util


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(8, name="encoder")(x))
        return nn.Dense(2, name="classifier")(x)


class FineTuner:
    """Fine-tunes the classifier while keeping the pretrained encoder fixed."""

    def __init__(self, model, params, lr: float = 1e-3, weight_decay: float = 0.5):
        self.model = model
        self.params = params
        flat = traverse_util.flatten_dict(params)
        frozen = traverse_util.unflatten_dict({k: k[1] == "encoder" for k in flat})
        self.tx = optax.chain(  # expect
            optax.freeze(frozen),
            optax.adamw(lr, weight_decay=weight_decay),
        )
        self.opt_state = self.tx.init(params)
        self._step = jax.jit(self._update)

    def _update(self, params, opt_state, x, y):
        def loss(p):
            logits = self.model.apply(p, x)
            return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

        grads = jax.grad(loss)(params)
        updates, opt_state = self.tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state

    def fit(self, x, y, steps: int):
        for _ in range(steps):
            self.params, self.opt_state = self._step(self.params, self.opt_state, x, y)


if __name__ == "__main__":
    model = Net()
    x = jax.random.normal(jax.random.key(0), (16, 4))
    y = jnp.arange(16) % 2
    params = model.init(jax.random.key(1), x)
    before = jnp.linalg.norm(params["params"]["encoder"]["kernel"])
    tuner = FineTuner(model, params)
    tuner.fit(x, y, 40)
    after = jnp.linalg.norm(tuner.params["params"]["encoder"]["kernel"])
    ratio = float(after / before)
    print(f"HAZARD: frozen encoder kernel norm 1.000 -> {ratio:.3f} of its start" if ratio != 1.0 else "OK")
