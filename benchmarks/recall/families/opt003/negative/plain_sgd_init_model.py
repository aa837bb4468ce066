# recall-case: negative
# rule: OPT003
# source: https://github.com/patrick-kidger/equinox/issues/69
# shown: sgd init on the whole MLP runs (state of EmptyStates), loss 0.158 -> 0.000 (OK)
# style: plain optax.sgd (no per-parameter state) initialised on the whole module, eqx.apply_updates, filter_jit
import jax
import jax.numpy as jnp
import equinox as eqx
import optax

model = eqx.nn.MLP(2, 1, 8, 1, key=jax.random.key(1))
optim = optax.sgd(0.1)
opt_state = optim.init(model)


@eqx.filter_jit
def step(model, opt_state, x, y):
    loss, grads = eqx.filter_value_and_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    updates, opt_state = optim.update(grads, opt_state, model)
    return eqx.apply_updates(model, updates), opt_state, loss


if __name__ == "__main__":
    x = jnp.ones((4, 2))
    y = jnp.full((4, 1), 0.5)
    first = None
    for _ in range(10):
        model, opt_state, loss = step(model, opt_state, x, y)
        first = first if first is not None else float(loss)
    print("state", type(opt_state).__name__, f"loss {first:.3f} -> {float(loss):.3f}")
    assert float(loss) < first
    print("OK")
