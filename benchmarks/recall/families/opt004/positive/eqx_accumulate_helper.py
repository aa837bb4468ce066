# recall-case: positive
# rule: OPT004
# source: https://github.com/google-deepmind/optax/issues/828
# shown: HAZARD: after one NaN micro-batch the output layer's weights never change again (max change 0.0 over 8 clean steps)
# style: Equinox MLP, helper that adds gradient accumulation to any transformation, called from two places
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


def with_accumulation(tx, k):
    return optax.MultiSteps(tx, every_k_schedule=k)  # expect


def robust_adam(lr):
    return optax.chain(optax.zero_nans(), optax.adam(lr))


def make_optimizers(lr):
    main = with_accumulation(robust_adam(lr), 2)
    critic = with_accumulation(optax.adam(lr), 2)
    return main, critic


@eqx.filter_jit
def step(model, state, x, y, optim):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    updates, state = optim.update(grads, state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), state


if __name__ == "__main__":
    optim, _ = make_optimizers(1e-2)
    model = eqx.nn.MLP(2, 1, 4, 1, key=jax.random.key(3))
    state = optim.init(eqx.filter(model, eqx.is_array))
    x, y = jnp.ones((4, 2)), jnp.ones((4, 1))
    model, state = step(model, state, x.at[0, 0].set(jnp.nan), y, optim)
    w0 = model.layers[-1].weight
    for _ in range(8):
        model, state = step(model, state, x, y, optim)
    moved = float(jnp.abs(model.layers[-1].weight - w0).max())
    print("max change of the output layer over 8 clean steps:", moved)
    if moved == 0.0:
        print("HAZARD: zero_nans inside MultiSteps: the NaN is kept in acc_grads and zeroes every later gradient")
