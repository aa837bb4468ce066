# recall-case: positive
# rule: OPT002
# source: https://github.com/google-deepmind/optax/issues/57
# shown: HAZARD: matrix weight unchanged after 10 zero-gradient steps (1.0000 vs expected decay); hyperparams['mask'] = False
# style: trainer class, optimizer built in __init__ and used in a jitted method, lion with a lambda mask
import jax
import jax.numpy as jnp
import optax


def init_params(key, sizes=(3, 5, 1)):
    params = []
    for k, (a, b) in zip(jax.random.split(key, len(sizes) - 1), zip(sizes[:-1], sizes[1:])):
        params.append({"w": jnp.ones((a, b)), "b": jnp.zeros(b)})
    return params


class Trainer:
    def __init__(self, lr_schedule, weight_decay=0.5):
        self.tx = optax.inject_hyperparams(optax.lion)(  # expect
            learning_rate=lr_schedule,
            weight_decay=weight_decay,
            mask=lambda p: jax.tree_util.tree_map(lambda x: x.ndim == 2, p),
        )
        self.train_step = jax.jit(self._train_step)

    def _train_step(self, params, state, grads):
        updates, state = self.tx.update(grads, state, params)
        return optax.apply_updates(params, updates), state

    def current_lr(self, state):
        return state.hyperparams["learning_rate"]


if __name__ == "__main__":
    trainer = Trainer(optax.constant_schedule(1e-2))
    params = init_params(jax.random.key(0))
    state = trainer.tx.init(params)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    for _ in range(10):
        params, state = trainer.train_step(params, state, zeros)
    w = float(params[0]["w"][0, 0])
    print(f"w after 10 zero-gradient steps: {w:.4f} (lion with wd=0.5, lr=1e-2 should give ~{(1 - 0.5e-2) ** 10:.4f})")
    print("hyperparams['mask'] =", state.hyperparams["mask"])
    if w > 0.9999:
        print("HAZARD: weight decay silently off: the mask function was treated as a schedule")
