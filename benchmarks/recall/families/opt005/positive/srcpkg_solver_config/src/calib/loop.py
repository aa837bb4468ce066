import jax
import optax


def calibrate(solver, objective, theta0, steps):
    state = solver.init(theta0)
    theta = theta0
    for _ in range(steps):
        grads = jax.grad(objective)(theta)
        updates, state = solver.update(grads, state, theta)
        theta = optax.apply_updates(theta, updates)
    return theta
