# recall-case: negative
# rule: OPT010
# source: https://github.com/patrick-kidger/equinox/issues/772
# shown: losses [0.0694, 0.0763, 0.0747, 0.0607] over 4 micro-steps (OK)
# style: trainer with MultiSteps and Dropout; the fix from the thread: eqx.is_inexact_array for init and update
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class Block(eqx.Module):
    fc1: eqx.nn.Linear
    drop: eqx.nn.Dropout
    fc2: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.fc1 = eqx.nn.Linear(8, 16, key=k1)
        self.drop = eqx.nn.Dropout(0.1)
        self.fc2 = eqx.nn.Linear(16, 1, key=k2)

    def __call__(self, x, key):
        return self.fc2(self.drop(jax.nn.gelu(self.fc1(x)), key=key))


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optim = optax.MultiSteps(optax.adamw(lr), every_k_schedule=2)
        self.opt_state = self.optim.init(eqx.filter(model, eqx.is_inexact_array))

    def step(self, x, y, key):
        keys = jax.random.split(key, x.shape[0])

        @eqx.filter_jit
        def _step(model, opt_state):
            loss, grads = eqx.filter_value_and_grad(lambda m: jnp.mean((jax.vmap(m)(x, keys) - y) ** 2))(model)
            updates, opt_state = self.optim.update(grads, opt_state, eqx.filter(model, eqx.is_inexact_array))
            return eqx.apply_updates(model, updates), opt_state, loss

        self.model, self.opt_state, loss = _step(self.model, self.opt_state)
        return float(loss)


if __name__ == "__main__":
    tr = Trainer(Block(jax.random.key(0)))
    losses = [tr.step(jnp.ones((4, 8)), jnp.zeros((4, 1)), k) for k in jax.random.split(jax.random.key(1), 4)]
    print("losses", [round(l, 4) for l in losses])
    assert all(jnp.isfinite(jnp.array(losses)))
    print("OK")
