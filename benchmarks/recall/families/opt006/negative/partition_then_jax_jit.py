# recall-case: negative
# rule: OPT006
# source: https://github.com/patrick-kidger/equinox/issues/1127
# shown: jax.jit over the array half of eqx.partition, MLP rebuilt with eqx.combine inside: loss 0.0037 -> 0.0030 (OK)
# style: eqx.partition + closure over the static half, plain jax.jit and jax.value_and_grad
import jax
import jax.numpy as jnp
import equinox as eqx

model = eqx.nn.MLP(4, 4, 64, 2, jax.nn.gelu, key=jax.random.key(0))
params, static = eqx.partition(model, eqx.is_array)


@jax.jit
def step(params, x, y):
    def loss(p):
        return jnp.mean((jax.vmap(eqx.combine(p, static))(x) - y) ** 2)

    value, grads = jax.value_and_grad(loss)(params)
    return jax.tree_util.tree_map(lambda p, g: p - 1e-2 * g, params, grads), value


if __name__ == "__main__":
    x = jnp.ones((8, 4))
    y = jnp.zeros((8, 4))
    _, first = step(params, x, y)
    for _ in range(10):
        params, value = step(params, x, y)
    print(f"loss {float(first):.4f} -> {float(value):.4f}")
    assert float(value) < float(first)
    print("OK")
