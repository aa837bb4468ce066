# recall-case: positive
# rule: OPT014
# source: https://github.com/google-deepmind/optax/issues/364
# source: https://github.com/google-deepmind/optax/issues/392
# shown: HAZARD: ensemble trained with decay=1e-2: idle weights x1.22 in 20 steps (adam run: x1.00)
# style: ensemble trainer with jax.vmap(self.optimizer.update); optimizer handed in by two callers
import jax
import jax.numpy as jnp
import optax


class EnsembleTrainer:
    def __init__(self, optimizer, n_members=4):
        self.optimizer = optimizer
        keys = jax.random.split(jax.random.key(0), n_members)
        self.params = jax.vmap(lambda k: {"w": jax.random.normal(k, (3,)), "idle": jnp.ones(2)})(keys)
        self.state = jax.vmap(self.optimizer.init)(self.params)

    def step(self, x, y):
        def loss(p):
            return jnp.mean((x @ p["w"] - y) ** 2)  # "idle" is not used by this loss

        grads = jax.vmap(jax.grad(loss))(self.params)
        updates, self.state = jax.vmap(self.optimizer.update)(grads, self.state, self.params)
        self.params = optax.apply_updates(self.params, updates)


def train(optimizer, steps=20):
    t = EnsembleTrainer(optimizer)
    x = jnp.ones((5, 3))
    for _ in range(steps):
        t.step(x, jnp.zeros(5))
    return float(t.params["idle"].mean())


if __name__ == "__main__":
    plain = train(optax.adam(1e-3))
    decayed = train(optax.chain(optax.adam(1e-3), optax.add_decayed_weights(1e-2)))  # expect
    print(f"HAZARD: ensemble trained with decay=1e-2: idle weights x{decayed:.2f} in 20 steps (adam run: x{plain:.2f})"
          if decayed > 1.0 else "OK")
