# recall-case: positive
# rule: OPT003
# source: https://github.com/patrick-kidger/equinox/issues/105
# shown: HAZARD: TypeError zeros_like requires ndarray or scalar arguments, got <class 'jax._src.custom_derivatives.custom_jvp'> at position 0.
# style: trainer class; model and optimizer stored on self in __init__, state created in another method
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class ConvNet(eqx.Module):
    layers: list

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.layers = [
            eqx.nn.Conv2d(1, 4, 3, key=k1),
            jax.nn.relu,
            jnp.ravel,
            eqx.nn.Linear(4 * 6 * 6, 10, key=k2),
        ]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return jax.nn.log_softmax(x)


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optim = optax.adam(lr)
        self.opt_state = None

    def setup(self):
        self.opt_state = self.optim.init(self.model)  # expect

    def step(self, x, y):
        def loss_fn(m):
            return -jnp.mean(jax.vmap(m)(x)[jnp.arange(y.shape[0]), y])

        grads = eqx.filter_grad(loss_fn)(self.model)
        updates, self.opt_state = self.optim.update(grads, self.opt_state)
        self.model = eqx.apply_updates(self.model, updates)


if __name__ == "__main__":
    trainer = Trainer(ConvNet(jax.random.key(0)))
    try:
        trainer.setup()
        trainer.step(jnp.ones((2, 1, 8, 8)), jnp.array([1, 2]))
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("trained")
