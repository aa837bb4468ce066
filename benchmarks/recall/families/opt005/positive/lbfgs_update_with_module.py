# recall-case: positive
# rule: OPT005
# source: https://github.com/google-deepmind/optax/issues/1304
# source: https://github.com/google-deepmind/optax/issues/1399
# shown: HAZARD: TypeError unsupported operand type(s) for -: 'jaxlib._jax.PjitFunction' and 'NoneType'
# style: Equinox model with a learnable physical parameter; filtered init, but update given the module as params, filter_jit step
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class Dynamics(eqx.Module):
    mlp: eqx.nn.MLP
    log_gamma: jax.Array

    def __init__(self, key):
        self.mlp = eqx.nn.MLP(1, 1, 5, 2, activation=jax.nn.tanh, key=key)
        self.log_gamma = jnp.array([-3.0])

    def __call__(self, y):
        return self.mlp(y) - jnp.exp(self.log_gamma)


ts = jnp.linspace(0, 1, 10)[:, None]
target = jnp.cos(ts)
optim = optax.lbfgs()


def loss(model):
    return jnp.mean((jax.vmap(model)(ts) - target) ** 2)


@eqx.filter_jit
def make_step(model, opt_state):
    value, grads = eqx.filter_value_and_grad(loss)(model)
    updates, opt_state = optim.update(grads, opt_state, model, value=value, grad=grads, value_fn=loss)  # expect
    return eqx.apply_updates(model, updates), opt_state, value


if __name__ == "__main__":
    model = Dynamics(jax.random.key(0))
    opt_state = optim.init(eqx.filter(model, eqx.is_inexact_array))
    try:
        for _ in range(3):
            model, opt_state, value = make_step(model, opt_state)
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("loss", value)
