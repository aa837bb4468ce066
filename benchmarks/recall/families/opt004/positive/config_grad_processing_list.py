# recall-case: positive
# rule: OPT004
# source: https://github.com/google-deepmind/optax/issues/828
# shown: HAZARD: after one NaN micro-batch the weights never move again: max change over 12 more clean steps 0.0; acc_grads holds nan
# style: ml_collections-style attribute config, gradient preprocessing parts assembled in a list, MultiSteps wraps the whole chain
import jax
import jax.numpy as jnp
import optax


class AttrDict(dict):
    __getattr__ = dict.__getitem__


def get_config():
    return AttrDict(lr=0.05, zero_nans=True, grad_clip=1.0, accumulation_steps=2)


def make_optimizer(config):
    grad_processing = []
    if config.zero_nans:
        grad_processing.append(optax.zero_nans())
    if config.grad_clip:
        grad_processing.append(optax.clip_by_global_norm(config.grad_clip))
    tx = optax.chain(*grad_processing, optax.adam(config.lr))
    return optax.MultiSteps(tx, every_k_schedule=config.accumulation_steps)  # expect


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


if __name__ == "__main__":
    config = get_config()
    tx = make_optimizer(config)
    params = {"w": jnp.ones((3,)), "b": jnp.zeros(())}
    state = tx.init(params)
    x, y = jnp.ones((4, 3)), jnp.zeros((4,))
    bad_x = x.at[0, 0].set(jnp.nan)  # one corrupt record in one micro-batch
    step = jax.jit(lambda p, s, x: tx.update(jax.grad(loss_fn)(p, x, y), s, p))
    updates, state = step(params, state, bad_x)
    params = optax.apply_updates(params, updates)
    before = params
    for _ in range(12):
        updates, state = step(params, state, x)
        params = optax.apply_updates(params, updates)
    moved = float(jnp.abs(params["w"] - before["w"]).max())
    print("max change over 12 clean steps:", moved, "acc_grads:", state.acc_grads["w"])
    if moved == 0.0:
        print("HAZARD: zero_nans inside MultiSteps: the NaN stays in the accumulator and every later gradient is zeroed")
