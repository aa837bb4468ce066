# recall-case: negative
# rule: OPT011
# source: https://github.com/patrick-kidger/equinox/issues/107
# shown: eqx.apply_updates keeps the activation; 3 steps run (OK)
# style: helper step with optax on the filtered params and eqx.apply_updates on the whole model
import jax
import jax.numpy as jnp
import equinox as eqx
import optax

optim = optax.sgd(1e-2, momentum=0.9)


def step(model, opt_state, x, y):
    params = eqx.filter(model, eqx.is_array)
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    updates, opt_state = optim.update(grads, opt_state, params)
    return eqx.apply_updates(model, updates), opt_state


if __name__ == "__main__":
    model = eqx.nn.MLP(3, 1, 8, 2, activation=jax.nn.silu, key=jax.random.key(0))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    for _ in range(3):
        model, opt_state = step(model, opt_state, jnp.ones((4, 3)), jnp.zeros((4, 1)))
    print("activation kept:", model.activation is jax.nn.silu)
    assert model.activation is jax.nn.silu
    print("OK")
