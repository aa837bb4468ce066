# recall-case: negative
# rule: OPT007
# source: https://github.com/google/brax/issues/647
# shown: update(grads, state) without params runs for adam and chain(clip, adam); loss falls (OK)
# style: brax-style update helper used with optimizers that never read params
import jax
import jax.numpy as jnp
import optax


def gradient_update_fn(loss_fn, optimizer):
    loss_and_grad = jax.value_and_grad(loss_fn)

    def f(params, *args, optimizer_state):
        value, grads = loss_and_grad(params, *args)
        updates, optimizer_state = optimizer.update(grads, optimizer_state)
        return value, optax.apply_updates(params, updates), optimizer_state

    return f


def loss(params, obs, target):
    return jnp.mean((obs @ params["w"] - target) ** 2)


if __name__ == "__main__":
    obs, target = jnp.ones((8, 3)), jnp.ones(8)
    for opt in (optax.adam(1e-1), optax.chain(optax.clip_by_global_norm(1.0), optax.adam(1e-1))):
        params = {"w": jnp.zeros(3)}
        upd = gradient_update_fn(loss, opt)
        state = opt.init(params)
        first, params, state = upd(params, obs, target, optimizer_state=state)
        for _ in range(10):
            value, params, state = upd(params, obs, target, optimizer_state=state)
        print(f"loss {float(first):.3f} -> {float(value):.3f}")
        assert value < first
    print("OK")
