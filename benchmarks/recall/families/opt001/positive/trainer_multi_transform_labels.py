# recall-case: positive
# rule: OPT001
# source: https://github.com/patrick-kidger/equinox/issues/266
# shown: TypeError: unsupported operand type(s) for @: 'str' and 'Net' at opt.init
# style: trainer class, labels built with eqx.tree_at in __init__, optimizer built in another method
"""Two-rate training: the encoder gets a small learning rate, the head a larger one."""
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class Net(eqx.Module):
    encoder: eqx.nn.Linear
    head: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.encoder = eqx.nn.Linear(3, 8, key=k1)
        self.head = eqx.nn.Linear(8, 1, key=k2)

    def __call__(self, x):
        return self.head(jax.nn.tanh(self.encoder(x)))


class Trainer:
    def __init__(self, model, enc_lr=1e-4, head_lr=1e-2):
        self.model = model
        self.enc_lr = enc_lr
        self.head_lr = head_lr
        params = eqx.filter(model, eqx.is_inexact_array)
        # every leaf "head", then relabel the encoder's leaves
        labels = jax.tree_util.tree_map(lambda _: "head", params)
        self.labels = eqx.tree_at(
            lambda m: (m.encoder.weight, m.encoder.bias), labels, ("encoder", "encoder")
        )

    def build_optimizer(self):
        return optax.multi_transform(  # expect
            {"encoder": optax.adam(self.enc_lr), "head": optax.adam(self.head_lr)},
            self.labels,
        )

    def fit(self, xs, ys, steps=3):
        opt = self.build_optimizer()
        params = eqx.filter(self.model, eqx.is_inexact_array)
        state = opt.init(params)  # expect

        @eqx.filter_jit
        def step(model, state):
            def loss(m):
                return jnp.mean((jax.vmap(m)(xs) - ys) ** 2)

            grads = eqx.filter_grad(loss)(model)
            updates, state = opt.update(grads, state, eqx.filter(model, eqx.is_inexact_array))
            return eqx.apply_updates(model, updates), state

        model = self.model
        for _ in range(steps):
            model, state = step(model, state)
        return model


if __name__ == "__main__":
    xs = jnp.ones((4, 3))
    ys = jnp.zeros((4, 1))
    try:
        Trainer(Net(jax.random.key(0))).fit(xs, ys)
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("no error")
