# recall-case: positive
# rule: OPT011
# source: https://github.com/patrick-kidger/equinox/issues/107
# source: https://github.com/patrick-kidger/equinox/issues/110
# shown: HAZARD: TypeError 'NoneType' object is not callable when evaluating the EMA model (its activation field is None)
# style: trainer class keeping an EMA copy built by tree_map over eqx.filter(model, eqx.is_array); the EMA model is called at eval
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class Trainer:
    def __init__(self, model, lr=1e-2, ema_decay=0.99):
        self.model = model
        self.ema = eqx.filter(model, eqx.is_array)
        self.ema_decay = ema_decay
        self.optim = optax.adam(lr)
        self.state = self.optim.init(eqx.filter(model, eqx.is_array))

    def step(self, x, y):
        grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(self.model)
        updates, self.state = self.optim.update(grads, self.state)
        self.model = eqx.apply_updates(self.model, updates)
        d = self.ema_decay
        self.ema = jax.tree_util.tree_map(lambda e, p: d * e + (1 - d) * p, self.ema, eqx.filter(self.model, eqx.is_array))  # expect

    def evaluate(self, x):
        return jax.vmap(self.ema)(x)  # expect


if __name__ == "__main__":
    tr = Trainer(eqx.nn.MLP(2, 1, 8, 2, key=jax.random.key(0)))
    x = jnp.ones((4, 2))
    for _ in range(3):
        tr.step(x, jnp.zeros((4, 1)))
    try:
        print(tr.evaluate(x))
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
