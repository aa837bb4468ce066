# recall-case: positive
# rule: OPT005
# source: https://github.com/patrick-kidger/optimistix/issues/121
# source: https://github.com/google/flax/issues/4812
# shown: HAZARD: TypeError scale_by_zoom_linesearch.<locals>.update_fn() missing 3 required keyword-only arguments: 'value', 'grad', and 'value_fn'
# style: one generic minimise helper called with adam in one place and lbfgs in another
import jax
import jax.numpy as jnp
import optax


def rosenbrock(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


def minimise(opt, x0, steps=20):
    state = opt.init(x0)
    x = x0
    for _ in range(steps):
        grads = jax.grad(rosenbrock)(x)
        updates, state = opt.update(grads, state, x)  # expect
        x = optax.apply_updates(x, updates)
    return x


if __name__ == "__main__":
    x0 = jnp.zeros(4)
    print("adam:", minimise(optax.adam(1e-2), x0))
    try:
        print("lbfgs:", minimise(optax.lbfgs(), x0))  # expect
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
