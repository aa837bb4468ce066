# recall-case: negative
# rule: OPT011
# source: https://github.com/patrick-kidger/equinox/issues/107
# shown: use_relu kept [True, True, False]; network stays nonlinear (linearity error 1.317) (OK)
# style: the fix: tree_map over the filtered arrays, then eqx.combine with the static half
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


def sgd_step(model, x, y, lr=1e-2):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    params, static = eqx.partition(model, eqx.is_array)
    params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    return eqx.combine(params, static)


if __name__ == "__main__":
    model = MLP(jax.random.key(0))
    x = jnp.linspace(-1, 1, 32)[:, None]
    model = sgd_step(model, x, jnp.abs(x))
    f = jax.vmap(model)
    err = float(jnp.abs(f(-x) - (-f(x) + 2 * f(jnp.zeros_like(x)))).max())
    print("use_relu", [l.use_relu for l in model.layers], f"linearity error {err:.3f}")
    assert err > 1e-3
    print("OK")
