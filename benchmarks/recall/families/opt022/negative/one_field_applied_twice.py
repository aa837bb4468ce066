# recall-case: negative
# rule: OPT022
# source: https://github.com/patrick-kidger/equinox/issues/469
# shown: OK one projection used twice; trains
# style: trainer class, sharing by calling one field twice in __call__
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class AutoEncoder(eqx.Module):
    proj: eqx.nn.Linear

    def __call__(self, x):
        return self.proj(jax.nn.relu(self.proj(x)))


class Trainer:
    def __init__(self, model, lr=1e-2):
        self.model = model
        self.optim = optax.adamw(lr)
        self.opt_state = self.optim.init(eqx.filter(model, eqx.is_array))

    def step(self, x):
        grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - x) ** 2))(self.model)
        updates, self.opt_state = self.optim.update(grads, self.opt_state, eqx.filter(self.model, eqx.is_array))
        self.model = eqx.apply_updates(self.model, updates)


if __name__ == "__main__":
    t = Trainer(AutoEncoder(eqx.nn.Linear(5, 5, key=jax.random.key(0))))
    x = jax.random.normal(jax.random.key(1), (16, 5))
    for _ in range(3):
        t.step(x)
    print("OK one projection used twice; trains")
