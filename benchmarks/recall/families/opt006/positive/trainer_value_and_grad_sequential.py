# recall-case: positive
# rule: OPT006
# source: https://github.com/patrick-kidger/equinox/issues/706
# shown: HAZARD: TypeError Argument '<function gelu ...>' of type <class 'function'> is not a valid JAX type.
# style: trainer class storing jax.value_and_grad(self.loss) in __init__, eqx.nn.Sequential with eqx.nn.Lambda(jax.nn.gelu)
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


def build(key, d_in=6):
    k1, k2 = jax.random.split(key)
    return eqx.nn.Sequential([
        eqx.nn.Linear(d_in, 16, key=k1),
        eqx.nn.Lambda(jax.nn.gelu),
        eqx.nn.Linear(16, 1, key=k2),
    ])


class Trainer:
    def __init__(self, model, lr=1e-3):
        self.model = model
        self.optim = optax.adam(lr)
        self.state = self.optim.init(eqx.filter(model, eqx.is_array))
        self.loss_and_grad = jax.value_and_grad(self.loss)

    @staticmethod
    def loss(model, x, y):
        return jnp.mean((jax.vmap(model)(x) - y) ** 2)

    def step(self, x, y):
        loss, grads = self.loss_and_grad(self.model, x, y)  # expect
        updates, self.state = self.optim.update(grads, self.state)
        self.model = eqx.apply_updates(self.model, updates)
        return loss


if __name__ == "__main__":
    tr = Trainer(build(jax.random.key(42)))
    try:
        tr.step(jnp.ones((4, 6)), jnp.zeros((4, 1)))
    except TypeError as e:
        print("HAZARD:", type(e).__name__, str(e).splitlines()[0][:200])
        raise SystemExit(1)
    print("stepped")
