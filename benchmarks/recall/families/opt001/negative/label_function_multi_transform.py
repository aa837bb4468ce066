# recall-case: negative
# rule: OPT001
# source: https://github.com/patrick-kidger/equinox/issues/266
# shown: runs; encoder moves less than head (OK)
# style: labels given as a function of the params (optax calls it and gets plain strings), trainer helper
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class Net(eqx.Module):
    encoder: eqx.nn.Linear
    head: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.encoder = eqx.nn.Linear(3, 8, key=k1)
        self.head = eqx.nn.Linear(8, 1, key=k2)

    def __call__(self, x):
        return self.head(jax.nn.tanh(self.encoder(x)))


def label_fn(params):
    labels = jax.tree_util.tree_map(lambda _: "head", params)
    return eqx.tree_at(lambda m: (m.encoder.weight, m.encoder.bias), labels, ("encoder", "encoder"))


def train(model, xs, ys, steps=5):
    opt = optax.multi_transform({"encoder": optax.sgd(1e-4), "head": optax.sgd(1e-1)}, label_fn)
    state = opt.init(eqx.filter(model, eqx.is_inexact_array))

    @eqx.filter_jit
    def step(model, state):
        grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(xs) - ys) ** 2))(model)
        updates, state = opt.update(grads, state, eqx.filter(model, eqx.is_inexact_array))
        return eqx.apply_updates(model, updates), state

    for _ in range(steps):
        model, state = step(model, state)
    return model


if __name__ == "__main__":
    m0 = Net(jax.random.key(0))
    m1 = train(m0, jnp.ones((4, 3)), jnp.full((4, 1), 3.0))
    d_enc = float(jnp.abs(m1.encoder.weight - m0.encoder.weight).max())
    d_head = float(jnp.abs(m1.head.weight - m0.head.weight).max())
    print(f"encoder moved {d_enc:.2e}, head moved {d_head:.2e}")
    assert d_enc < d_head
    print("OK")
