# recall-case: positive
# rule: OPT011
# source: https://github.com/patrick-kidger/equinox/issues/107
# shown: use_relu after the step: [None, None, None]; linearity error 2.09e-07; HAZARD: the network is silently linear
# style: custom Linear with a use_relu switch, hand-written filter lambda t: isinstance(t, jnp.ndarray), manual SGD with tree_map
import jax
import jax.numpy as jnp
import equinox as eqx


class Linear(eqx.Module):
    weight: jax.Array
    bias: jax.Array
    use_relu: bool

    def __init__(self, d_in, d_out, use_relu, key):
        self.weight = jax.random.normal(key, (d_out, d_in)) / jnp.sqrt(d_in)
        self.bias = jnp.zeros(d_out)
        self.use_relu = use_relu

    def __call__(self, x):
        y = self.weight @ x + self.bias
        return jax.nn.relu(y) if self.use_relu else y


class MLP(eqx.Module):
    layers: list

    def __init__(self, key):
        k1, k2, k3 = jax.random.split(key, 3)
        self.layers = [Linear(1, 16, True, k1), Linear(16, 16, True, k2), Linear(16, 1, False, k3)]

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


def loss(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


def sgd_step(model, x, y, lr=1e-2):
    grads = eqx.filter_grad(loss)(model, x, y)
    model = jax.tree_util.tree_map(  # expect
        lambda m, g: m - lr * g, eqx.filter(model, lambda t: isinstance(t, jnp.ndarray)), grads
    )
    return model


if __name__ == "__main__":
    model = MLP(jax.random.key(0))
    x = jnp.linspace(-1, 1, 32)[:, None]
    model = sgd_step(model, x, jnp.abs(x))
    print("use_relu after the step:", [layer.use_relu for layer in model.layers])
    f = jax.vmap(model)
    err = float(jnp.abs(f(-x) - (-f(x) + 2 * f(jnp.zeros_like(x)))).max())
    print(f"linearity error {err:.2e}")
    if err < 1e-5:
        print("HAZARD: the rebuilt model lost its use_relu switches and is silently linear")
