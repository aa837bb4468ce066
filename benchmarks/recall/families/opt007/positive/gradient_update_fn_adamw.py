# recall-case: positive
# rule: OPT007
# source: https://github.com/google/brax/issues/647
# shown: HAZARD: ValueError You are using a transformation that requires the current value of parameters, but you are not passing `params` when calling `update`.
# style: library-style helper wrapping loss+update (called for actor and critic), the caller picks adamw
import jax
import jax.numpy as jnp
import optax


def gradient_update_fn(loss_fn, optimizer, has_aux=False):
    loss_and_pgrad = jax.value_and_grad(loss_fn, has_aux=has_aux)

    def f(*args, optimizer_state):
        value, grads = loss_and_pgrad(*args)
        params_update, optimizer_state = optimizer.update(grads, optimizer_state)  # expect
        return value, params_update, optimizer_state

    return f


def critic_loss(params, obs, target):
    return jnp.mean((obs @ params["w"] - target) ** 2)


def actor_loss(params, obs):
    return -jnp.mean(jnp.tanh(obs @ params["w"]))


if __name__ == "__main__":
    obs = jnp.ones((8, 3))
    q_opt = optax.adamw(learning_rate=3e-4, weight_decay=1e-2)
    pi_opt = optax.adam(3e-4)
    q_params, pi_params = {"w": jnp.zeros(3)}, {"w": jnp.zeros(3)}
    critic_update = gradient_update_fn(critic_loss, q_opt)
    actor_update = gradient_update_fn(actor_loss, pi_opt)
    _, upd, _ = actor_update(pi_params, obs, optimizer_state=pi_opt.init(pi_params))
    try:
        critic_update(q_params, obs, jnp.ones(8), optimizer_state=q_opt.init(q_params))  # expect
    except ValueError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("updated")
