# recall-case: positive
# rule: OPT004
# source: https://github.com/google-deepmind/optax/issues/828
# shown: HAZARD: after one NaN micro-batch the model stops training: loss 4.0 before, 4.0 after 10 clean steps
# style: trainer class; base transformation from one method, accumulation wrapper added in __init__, jitted step in another method
import jax
import jax.numpy as jnp
import optax


class Trainer:
    def __init__(self, lr=0.05, accum=4):
        self.lr = lr
        self.tx = optax.MultiSteps(self.base_tx(), every_k_schedule=accum)  # expect
        self._step = jax.jit(self.step)

    def base_tx(self):
        return optax.chain(optax.zero_nans(), optax.clip_by_global_norm(1.0), optax.adamw(self.lr))

    @staticmethod
    def loss(params, x):
        return jnp.mean((x * params["scale"] - 2.0) ** 2)

    def step(self, params, state, x):
        grads = jax.grad(self.loss)(params, x)
        updates, state = self.tx.update(grads, state, params)
        return optax.apply_updates(params, updates), state


if __name__ == "__main__":
    tr = Trainer()
    params = {"scale": jnp.zeros(())}
    state = tr.tx.init(params)
    x = jnp.ones(8)
    params, state = tr._step(params, state, x.at[3].set(jnp.nan))
    l0 = float(tr.loss(params, x))
    for _ in range(10):
        params, state = tr._step(params, state, x)
    l1 = float(tr.loss(params, x))
    print(f"loss {l0:.3f} before, {l1:.3f} after 10 clean micro-batches")
    if l1 == l0:
        print("HAZARD: zero_nans inside MultiSteps froze the parameter after a single NaN micro-batch")
