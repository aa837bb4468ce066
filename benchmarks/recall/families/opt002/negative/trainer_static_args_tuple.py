# recall-case: negative
# rule: OPT002
# source: https://github.com/google-deepmind/optax/issues/57
# source: https://github.com/google-deepmind/optax/issues/1373
# shown: w 0.9511 after 10 zero-gradient steps (decayed), hyperparams has no 'mask' entry (OK)
# style: trainer class with lion and a lambda mask, static_args given as a tuple
import jax
import jax.numpy as jnp
import optax


class Trainer:
    def __init__(self, lr, weight_decay=0.5):
        self.tx = optax.inject_hyperparams(optax.lion, static_args=("mask",))(
            learning_rate=lr,
            weight_decay=weight_decay,
            mask=lambda p: jax.tree_util.tree_map(lambda x: x.ndim == 2, p),
        )
        self.step = jax.jit(self._step)

    def _step(self, params, state, grads):
        updates, state = self.tx.update(grads, state, params)
        return optax.apply_updates(params, updates), state


if __name__ == "__main__":
    tr = Trainer(1e-2)
    params = [{"w": jnp.ones((3, 4)), "b": jnp.ones(4)}]
    state = tr.tx.init(params)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    for _ in range(10):
        params, state = tr.step(params, state, zeros)
    w, b = float(params[0]["w"][0, 0]), float(params[0]["b"][0])
    print(f"w {w:.4f} b {b:.4f}; hyperparams keys {sorted(state.hyperparams)}")
    assert w < 0.99 and b == 1.0
    print("OK")
