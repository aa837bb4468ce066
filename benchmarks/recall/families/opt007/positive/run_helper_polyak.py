# recall-case: positive
# rule: OPT007
# source: https://github.com/google-deepmind/optax/issues/1649
# shown: HAZARD: TypeError ... update_fn() missing 1 required keyword-only argument: 'value'
# style: one benchmark helper run(opt, x0) called with several optimizers; polyak_sgd needs value=
import jax
import jax.numpy as jnp
import optax


def f(x):
    return jnp.sum((x - 1.0) ** 2)


def run(opt, x0, steps=25):
    x, state = x0, opt.init(x0)
    for _ in range(steps):
        g = jax.grad(f)(x)
        updates, state = opt.update(g, state, x)  # expect
        x = optax.apply_updates(x, updates)
    return f(x)


if __name__ == "__main__":
    x0 = jnp.zeros(5)
    results = {}
    for name, opt in [("sgd", optax.sgd(0.1)), ("adam", optax.adam(0.1)), ("polyak", optax.polyak_sgd(max_learning_rate=1.0))]:  # expect
        try:
            results[name] = float(run(opt, x0))
        except TypeError as e:
            print("HAZARD:", name, type(e).__name__, e)
            raise SystemExit(1)
    print(results)
