# recall-case: negative
# rule: OPT010
# source: https://github.com/patrick-kidger/equinox/issues/681
# shown: is_array_like on Linear layers only (no Python scalar leaves): loss 0.7635 -> 0.0071 (OK)
# style: eqx.filter(model, eqx.is_array_like) into init, model with no Dropout and no float fields
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class TwoLayer(eqx.Module):
    a: eqx.nn.Linear
    b: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.a = eqx.nn.Linear(3, 8, key=k1)
        self.b = eqx.nn.Linear(8, 1, key=k2)

    def __call__(self, x):
        return self.b(jnp.tanh(self.a(x)))


if __name__ == "__main__":
    model = TwoLayer(jax.random.key(0))
    optim = optax.adam(1e-2)
    opt_state = optim.init(eqx.filter(model, eqx.is_array_like))
    x, y = jnp.ones((4, 3)), jnp.ones((4, 1))
    loss = lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2)
    l0 = float(loss(model))
    for _ in range(10):
        grads = eqx.filter_grad(loss)(model)
        updates, opt_state = optim.update(grads, opt_state)
        model = eqx.apply_updates(model, updates)
    print(f"loss {l0:.4f} -> {float(loss(model)):.4f}")
    assert float(loss(model)) < l0
    print("OK")
