# recall-case: negative
# rule: OPT021
# source: https://github.com/patrick-kidger/equinox/issues/502
# shown: OK step ran with keyword arguments
# style: filter_jit step called entirely by keyword; the filter_grad inside is called positionally
import equinox as eqx
import jax
import jax.numpy as jnp
import optax

optim = optax.sgd(1e-2)


def loss(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


@eqx.filter_jit
def make_step(model, opt_state, x, y):
    grads = eqx.filter_grad(loss)(model, x, y)
    updates, opt_state = optim.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state


if __name__ == "__main__":
    model = eqx.nn.Linear(2, 1, key=jax.random.key(0))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    model, opt_state = make_step(model=model, opt_state=opt_state, x=jnp.ones((4, 2)), y=jnp.zeros((4, 1)))
    print("OK step ran with keyword arguments")
