# recall-case: positive
# rule: OPT009
# source: https://github.com/google-deepmind/optax/issues/290
# source: https://github.com/google-deepmind/optax/issues/159
# shown: encoder moved 9.44e-01 (meant frozen); HAZARD: raw gradient passed through on masked-out leaves
# style: trainer class; helper freeze_except() builds the mask by name and wraps an inject_hyperparams optimizer; used in train()
import jax
import jax.numpy as jnp
import optax


def freeze_except(optimizer, params, trainable=("decoder",)):
    mask = {name: jax.tree_util.tree_map(lambda _: name in trainable, sub) for name, sub in params.items()}
    return optax.masked(optimizer, mask)


class Trainer:
    def __init__(self, params, lr_schedule):
        self.params = params
        inner = optax.inject_hyperparams(optax.adam)(learning_rate=lr_schedule)
        self.tx = freeze_except(inner, params)  # expect
        self.state = self.tx.init(params)

    @staticmethod
    def loss(p, x):
        return jnp.sum((jnp.tanh(x @ p["encoder"]["w"]) @ p["decoder"]["w"] - 1.0) ** 2)

    def train(self, x, steps=3):
        for _ in range(steps):
            g = jax.grad(self.loss)(self.params, x)
            u, self.state = self.tx.update(g, self.state, self.params)
            self.params = optax.apply_updates(self.params, u)


if __name__ == "__main__":
    p0 = {"encoder": {"w": jnp.full((3, 4), 0.1)}, "decoder": {"w": jnp.full((4, 1), 0.1)}}
    tr = Trainer(p0, optax.linear_schedule(1e-2, 1e-3, 100))
    tr.train(jnp.ones((5, 3)))
    moved = float(jnp.abs(tr.params["encoder"]["w"] - p0["encoder"]["w"]).max())
    print(f"encoder moved {moved:.2e} (meant frozen)")
    if moved > 0:
        print("HAZARD: optax.masked lets the raw gradient through on masked-out leaves")
