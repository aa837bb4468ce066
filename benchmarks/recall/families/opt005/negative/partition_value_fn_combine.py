# recall-case: negative
# rule: OPT005
# source: https://github.com/google-deepmind/optax/issues/1017
# source: https://github.com/patrick-kidger/equinox/issues/796
# shown: loss 0.5622 -> 0.0944 in 10 L-BFGS steps (OK)
# style: Equinox MLP with eqx.partition; value_fn rebuilds the model with eqx.combine; jax.jit on the array half
import jax
import jax.numpy as jnp
import equinox as eqx
import optax

x = jnp.linspace(0, 1, 16)[:, None]
y = jnp.sin(3 * x)


def loss_of_model(model):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


if __name__ == "__main__":
    model = eqx.nn.MLP(1, 1, 8, 2, activation=jax.nn.tanh, key=jax.random.key(0))
    params, static = eqx.partition(model, eqx.is_inexact_array)
    value_fn = lambda p: loss_of_model(eqx.combine(p, static))
    solver = optax.lbfgs()
    state = solver.init(params)

    @jax.jit
    def step(params, state):
        value, grads = jax.value_and_grad(value_fn)(params)
        updates, state = solver.update(grads, state, params, value=value, grad=grads, value_fn=value_fn)
        return optax.apply_updates(params, updates), state, value

    first = None
    for _ in range(10):
        params, state, value = step(params, state)
        first = float(value) if first is None else first
    final = float(value_fn(params))
    print(f"loss {first:.4f} -> {final:.4f}")
    assert final < first
    print("OK")
