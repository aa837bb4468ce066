# recall-case: negative
# rule: OPT004
# source: https://github.com/google-deepmind/optax/issues/828
# shown: training continues after a NaN batch: loss 4.000 -> 0.001 (OK)
# style: trainer class, zero_nans in a plain chain with clipping and adamw (no accumulation)
import jax
import jax.numpy as jnp
import optax


class Trainer:
    def __init__(self, lr=0.1):
        self.tx = optax.chain(optax.zero_nans(), optax.clip_by_global_norm(1.0), optax.adamw(lr))
        self.step = jax.jit(self._step)

    @staticmethod
    def loss(params, x):
        return jnp.mean((x * params["scale"] - 2.0) ** 2)

    def _step(self, params, state, x):
        grads = jax.grad(self.loss)(params, x)
        updates, state = self.tx.update(grads, state, params)
        return optax.apply_updates(params, updates), state


if __name__ == "__main__":
    tr = Trainer()
    params = {"scale": jnp.zeros(())}
    state = tr.tx.init(params)
    x = jnp.ones(8)
    params, state = tr.step(params, state, x.at[3].set(jnp.nan))
    l0 = float(tr.loss(params, x))
    for _ in range(40):
        params, state = tr.step(params, state, x)
    l1 = float(tr.loss(params, x))
    print(f"loss {l0:.3f} -> {l1:.3f}")
    assert l1 < l0
    print("OK")
