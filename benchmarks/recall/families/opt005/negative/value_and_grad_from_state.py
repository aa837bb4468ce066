# recall-case: negative
# rule: OPT005
# source: https://github.com/google/flax/issues/4144
# shown: rosenbrock 3.000 -> 1.15e-09 in 30 L-BFGS steps (OK)
# style: the documented pattern: optax.value_and_grad_from_state, update given value/grad/value_fn, plain arrays
import jax
import jax.numpy as jnp
import optax


def rosenbrock(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


if __name__ == "__main__":
    solver = optax.lbfgs()
    x = jnp.zeros(4)
    state = solver.init(x)
    vg = optax.value_and_grad_from_state(rosenbrock)
    start = float(rosenbrock(x))

    @jax.jit
    def step(x, state):
        value, grad = vg(x, state=state)
        updates, state = solver.update(grad, state, x, value=value, grad=grad, value_fn=rosenbrock)
        return optax.apply_updates(x, updates), state

    for _ in range(30):
        x, state = step(x, state)
    print(f"rosenbrock {start:.3f} -> {float(rosenbrock(x)):.2e}")
    assert float(rosenbrock(x)) < 1e-3
    print("OK")
