# recall-case: negative
# rule: OPT005
# source: https://github.com/patrick-kidger/optimistix/issues/121
# shown: adam and lbfgs both run through the same helper (OK)
# style: generic minimise helper that always passes value/grad/value_fn, called with adam and lbfgs
import jax
import jax.numpy as jnp
import optax


def objective(x):
    return jnp.sum((x - 2.0) ** 2)


def minimise(opt, x0, steps=20):
    @jax.jit
    def step(x, state):
        value, grads = jax.value_and_grad(objective)(x)
        updates, state = opt.update(grads, state, x, value=value, grad=grads, value_fn=objective)
        return optax.apply_updates(x, updates), state

    x, state = x0, opt.init(x0)
    for _ in range(steps):
        x, state = step(x, state)
    return x


if __name__ == "__main__":
    xa = minimise(optax.adam(1e-1), jnp.zeros(3))
    xl = minimise(optax.lbfgs(), jnp.zeros(3))
    print("adam", xa, "lbfgs", xl)
    assert float(objective(xl)) < 1e-6
    print("OK")
