# recall-case: positive
# rule: OPT002
# source: https://github.com/google-deepmind/optax/issues/57
# shown: HAZARD: encoder weight 1.0000 after 10 zero-gradient steps (expected 0.9044); hyperparams['mask'] = False
# style: helper with_logged_lr(opt_fn, **kwargs) wrapping inject_hyperparams, called from two places; only one caller passes a mask function
import jax
import jax.numpy as jnp
import optax


def with_logged_lr(opt_fn, **kwargs):
    """Wrap any optax alias so the learning rate shows up in opt_state.hyperparams."""
    return optax.inject_hyperparams(opt_fn)(**kwargs)


def matrices(params):
    return jax.tree_util.tree_map(lambda p: p.ndim == 2, params)


def build_optimizers():
    encoder_tx = with_logged_lr(optax.adamw, learning_rate=0.1, weight_decay=0.1, mask=matrices)  # expect
    probe_tx = with_logged_lr(optax.sgd, learning_rate=0.01)
    return encoder_tx, probe_tx


if __name__ == "__main__":
    encoder_tx, _ = build_optimizers()
    params = {"w": jnp.ones((2, 3)), "b": jnp.ones(3)}
    state = encoder_tx.init(params)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    for _ in range(10):
        updates, state = encoder_tx.update(zeros, state, params)
        params = optax.apply_updates(params, updates)
    w = float(params["w"][0, 0])
    print(f"encoder weight {w:.4f} after 10 zero-gradient steps (expected {(1 - 0.01) ** 10:.4f}); hyperparams['mask'] = {state.hyperparams['mask']}")
    if w > 0.9999:
        print("HAZARD: the mask function was taken for a schedule; weight decay is off")
