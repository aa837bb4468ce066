import jax
import jax.numpy as jnp
import equinox as eqx


def fit(build_model, optimizer, x, y, steps=2, seed=0):
    """Generic loop: the caller supplies a model factory and an optax optimizer."""
    model = build_model(jax.random.key(seed))
    state = optimizer.init(model)
    for _ in range(steps):
        grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
        updates, state = optimizer.update(grads, state, model)
        model = eqx.apply_updates(model, updates)
    return model
