# recall-case: positive
# rule: grad-accumulation
# source: https://github.com/jenkspt/gpt-jax/issues/2
# source: https://github.com/google-deepmind/optax/issues/320
# shown: HAZARD: accumulated step is 3.4x the MultiSteps step (k adam steps summed, moments per micro-batch)
# style: trainer class, Flax linen, apply_every appended after clip + adamw, optimizer on self
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.tanh(nn.Dense(16)(x)))


class Trainer:
    def __init__(self, lr=1e-3, accum_steps=4):
        self.model = Net()
        self.accum_steps = accum_steps
        self.tx = optax.chain(  # expect
            optax.clip_by_global_norm(1.0),
            optax.adamw(lr, weight_decay=0.01),
            optax.apply_every(accum_steps),
        )

    def init(self, key, x):
        self.params = self.model.init(key, x)
        self.opt_state = self.tx.init(self.params)

    def micro_step(self, x, y):
        grads = jax.grad(lambda p: jnp.mean((self.model.apply(p, x) - y) ** 2))(self.params)
        updates, self.opt_state = self.tx.update(grads, self.opt_state, self.params)
        self.params = optax.apply_updates(self.params, updates)
        return updates


def boundary_update_norm(tx, model, params, batches):
    state = tx.init(params)
    for x, y in batches:
        grads = jax.grad(lambda p: jnp.mean((model.apply(p, x) - y) ** 2))(params)
        updates, state = tx.update(grads, state, params)
        params = optax.apply_updates(params, updates)
    return optax.global_norm(updates)


if __name__ == "__main__":
    xs = jax.random.normal(jax.random.key(0), (4, 8, 3))
    ys = jnp.sin(xs[..., :1])
    t = Trainer()
    t.init(jax.random.key(1), xs[0])
    p0 = t.params
    for x, y in zip(xs, ys):
        last = t.micro_step(x, y)
    ours = optax.global_norm(last)
    ref_tx = optax.MultiSteps(optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(1e-3, weight_decay=0.01)), 4)
    ref = boundary_update_norm(ref_tx, t.model, p0, zip(xs, ys))
    r = float(ours / ref)
    print(f"HAZARD: accumulated step is {r:.1f}x the MultiSteps step (k adam steps summed, moments per micro-batch)"
          if abs(r - 1) > 0.1 else "OK")
