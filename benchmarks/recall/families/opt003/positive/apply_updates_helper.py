# recall-case: positive
# rule: OPT003
# source: https://github.com/patrick-kidger/equinox/issues/110
# source: https://github.com/patrick-kidger/equinox/issues/107
# shown: HAZARD: TypeError unsupported operand type(s) for +: 'custom_jvp' and 'NoneType'
# style: helper applying updates called from the train loop and from a fine-tune function; optax.apply_updates on the module
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


def apply(model, updates):
    return optax.apply_updates(model, updates)  # expect


def train(model, optim, x, y, steps):
    params = eqx.filter(model, eqx.is_array)
    state = optim.init(params)
    for _ in range(steps):
        grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
        updates, state = optim.update(grads, state, eqx.filter(model, eqx.is_array))
        model = apply(model, updates)
    return model


def finetune(model, x, y):
    return train(model, optax.sgd(1e-3, momentum=0.9), x, y, steps=1)


if __name__ == "__main__":
    model = eqx.nn.MLP(3, 1, 8, 2, key=jax.random.key(0))
    x, y = jnp.ones((4, 3)), jnp.zeros((4, 1))
    try:
        model = train(model, optax.adam(1e-2), x, y, steps=2)
        model = finetune(model, x, y)
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("trained")
