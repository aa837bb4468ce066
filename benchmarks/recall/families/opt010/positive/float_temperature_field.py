# recall-case: positive
# rule: OPT010
# source: https://github.com/patrick-kidger/equinox/issues/681
# shown: HAZARD: ValueError pytree structure error: different types at key path (the Python float `temperature` gets Adam state, its gradient is None)
# style: module with a plain Python float hyperparameter field, no Dropout; is_array_like filter at init
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class ScaledSoftmaxHead(eqx.Module):
    proj: eqx.nn.Linear
    temperature: float

    def __init__(self, key, temperature=2.0):
        self.proj = eqx.nn.Linear(5, 3, key=key)
        self.temperature = temperature

    def __call__(self, x):
        return jax.nn.log_softmax(self.proj(x) / self.temperature)


if __name__ == "__main__":
    model = ScaledSoftmaxHead(jax.random.key(0))
    optim = optax.adam(1e-2)
    opt_state = optim.init(eqx.filter(model, eqx.is_array_like))  # expect
    x = jnp.ones((6, 5))
    y = jnp.array([0, 1, 2, 0, 1, 2])
    loss = lambda m: -jnp.mean(jax.vmap(m)(x)[jnp.arange(6), y])
    try:
        grads = eqx.filter_grad(loss)(model)
        updates, opt_state = optim.update(grads, opt_state)
        model = eqx.apply_updates(model, updates)
    except (ValueError, TypeError) as e:
        print("HAZARD:", type(e).__name__, str(e).splitlines()[0][:160])
        raise SystemExit(1)
    print("updated")
