# recall-case: positive
# rule: OPT010
# source: https://github.com/patrick-kidger/equinox/issues/772
# shown: HAZARD: ValueError pytree structure error ... (Dropout's p/inference got optimizer state, their gradients are None)
# style: trainer class with gradient accumulation; opt_state from eqx.filter(model, eqx.is_array_like) in __init__, update in another method
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class Block(eqx.Module):
    fc1: eqx.nn.Linear
    drop: eqx.nn.Dropout
    fc2: eqx.nn.Linear

    def __init__(self, key, p=0.1):
        k1, k2 = jax.random.split(key)
        self.fc1 = eqx.nn.Linear(8, 16, key=k1)
        self.drop = eqx.nn.Dropout(p)
        self.fc2 = eqx.nn.Linear(16, 1, key=k2)

    def __call__(self, x, key):
        return self.fc2(self.drop(jax.nn.gelu(self.fc1(x)), key=key))


class Trainer:
    def __init__(self, model, lr=1e-3, accum_steps=2):
        self.model = model
        self.optim = optax.MultiSteps(optax.adamw(lr), every_k_schedule=accum_steps)
        self.opt_state = self.optim.init(eqx.filter(model, eqx.is_array_like))  # expect

    def step(self, x, y, key):
        keys = jax.random.split(key, x.shape[0])

        @eqx.filter_jit
        def _step(model, opt_state):
            loss, grads = eqx.filter_value_and_grad(lambda m: jnp.mean((jax.vmap(m)(x, keys) - y) ** 2))(model)
            updates, opt_state = self.optim.update(grads, opt_state, eqx.filter(model, eqx.is_array_like))
            return eqx.apply_updates(model, updates), opt_state, loss

        self.model, self.opt_state, loss = _step(self.model, self.opt_state)
        return loss


if __name__ == "__main__":
    tr = Trainer(Block(jax.random.key(0)))
    try:
        tr.step(jnp.ones((4, 8)), jnp.zeros((4, 1)), jax.random.key(1))
    except (ValueError, TypeError) as e:
        print("HAZARD:", type(e).__name__, str(e).splitlines()[0][:160])
        raise SystemExit(1)
    print("stepped")
