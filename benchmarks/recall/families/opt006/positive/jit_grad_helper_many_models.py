# recall-case: positive
# rule: OPT006
# source: https://github.com/patrick-kidger/equinox/issues/361
# shown: HAZARD: TypeError ... at path model.activation (Linear and Sequential work through the same helper, MLP fails)
# style: one jitted gradient helper used with three models; only the MLP (activation leaf) breaks it
import jax
import jax.numpy as jnp
import equinox as eqx


@jax.jit
@jax.grad
def loss_grad(model, x, y):
    pred = jax.vmap(model)(x)
    return jnp.mean((y - pred) ** 2)


if __name__ == "__main__":
    key = jax.random.key(0)
    x = jnp.zeros((8, 2))
    y = jnp.zeros((8, 3))
    lin = eqx.nn.Linear(2, 3, key=key)
    seq = eqx.nn.Sequential([eqx.nn.Linear(2, 4, key=key), eqx.nn.Linear(4, 3, key=key)])
    mlp = eqx.nn.MLP(2, 3, 8, 2, key=key)
    loss_grad(lin, x, y)
    loss_grad(seq, x, y)
    try:
        loss_grad(mlp, x, y)  # expect
    except (TypeError, KeyError) as e:
        print("HAZARD:", type(e).__name__, str(e).splitlines()[0][:220])
        raise SystemExit(1)
    print("all three ran")
