# recall-case: positive
# rule: OPT016
# source: https://github.com/facebookresearch/schedule_free/issues/15
# shown: AttributeError: 'MultiStepsState' object has no attribute 'b1'
# style: Equinox, gradient accumulation wrapper around schedule-free AdamW, filter_jit step
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


@eqx.filter_jit
def train_step(model, opt_state, optim, x, y):
    grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
    params = eqx.filter(model, eqx.is_array)
    updates, opt_state = optim.update(grads, opt_state, params)
    return eqx.apply_updates(model, updates), opt_state


def eval_model(model, opt_state):
    params, static = eqx.partition(model, eqx.is_array)
    eval_params = optax.contrib.schedule_free_eval_params(opt_state, params)  # expect
    return eqx.combine(eval_params, static)


if __name__ == "__main__":
    model = eqx.nn.MLP(3, 1, 16, 2, key=jax.random.key(0))
    optim = optax.MultiSteps(optax.contrib.schedule_free_adamw(1e-3, warmup_steps=4), every_k_schedule=2)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    x = jnp.ones((8, 3))
    y = jnp.zeros((8, 1))
    for _ in range(6):
        model, opt_state = train_step(model, opt_state, optim, x, y)
    ev = eval_model(model, opt_state)
    print("HAZARD: no error (not expected)", jax.vmap(ev)(x)[0])
