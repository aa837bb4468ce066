# recall-case: negative
# rule: OPT006
# source: https://github.com/patrick-kidger/equinox/issues/361
# shown: jax.jit(jax.grad(loss)) runs for eqx.nn.Linear and a Sequential of Linears (their non-array fields are static) (OK)
# style: jitted gradient helper over models whose leaves are all arrays
import jax
import jax.numpy as jnp
import equinox as eqx


@jax.jit
@jax.grad
def loss_grad(model, x, y):
    return jnp.mean((y - jax.vmap(model)(x)) ** 2)


if __name__ == "__main__":
    key = jax.random.key(0)
    x, y = jnp.ones((8, 2)), jnp.zeros((8, 3))
    lin = eqx.nn.Linear(2, 3, key=key)
    seq = eqx.nn.Sequential([eqx.nn.Linear(2, 4, key=key), eqx.nn.Linear(4, 3, key=key)])
    g1 = loss_grad(lin, x, y)
    g2 = loss_grad(seq, x, y)
    print("grad shapes", g1.weight.shape, g2.layers[0].weight.shape)
    print("OK")
