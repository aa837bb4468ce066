# recall-case: positive
# rule: OPT003
# source: https://github.com/patrick-kidger/equinox/issues/590
# source: https://github.com/patrick-kidger/equinox/issues/853
# shown: HAZARD: TypeError Argument '<function ...>' of type <class 'jax._src.custom_derivatives.custom_jvp'> is not a valid JAX type (raised inside MultiSteps.update)
# style: gradient accumulation with MultiSteps around adamw, filter_jit step, init filtered but update given the whole model
import jax
import jax.numpy as jnp
import equinox as eqx
import optax

model = eqx.nn.MLP(2, 2, 8, 2, key=jax.random.key(255))
optim = optax.MultiSteps(optax.adamw(1e-2), every_k_schedule=2)
opt_state = optim.init(eqx.filter(model, eqx.is_array))


def loss(model, x):
    return jnp.mean(jax.vmap(model)(x) ** 2)


@eqx.filter_jit
def train_step(model, opt_state, x):
    grads = eqx.filter_grad(loss)(model, x)
    updates, opt_state = optim.update(grads, opt_state, model)  # expect
    return eqx.apply_updates(model, updates), opt_state


if __name__ == "__main__":
    try:
        for _ in range(2):
            model, opt_state = train_step(model, opt_state, jnp.ones((4, 2)))
    except TypeError as e:
        print("HAZARD:", type(e).__name__, str(e)[:200])
        raise SystemExit(1)
    print("trained")
