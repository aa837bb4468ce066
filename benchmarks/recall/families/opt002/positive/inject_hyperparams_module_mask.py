# recall-case: positive
# rule: OPT002
# relabelled from OPT001 by the lead (2026-11-26): the error shown is inject_hyperparams calling the
# module-shaped mask as a schedule; on optax 0.2.8 static_args="mask" alone makes the script run
# (measured by the families4 helper), so the bug is OPT002's. The program itself is unchanged.
# source: https://github.com/google-deepmind/optax/issues/1373
# shown: TypeError: Regressor.__call__() missing 1 required positional argument: 'offset' (optax calls the module-shaped mask at init)
# style: learning rate injected for logging, weight-decay mask built with eqx.tree_at, helper function
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class Regressor(eqx.Module):
    mlp: eqx.nn.MLP

    def __init__(self, key):
        self.mlp = eqx.nn.MLP(2, "scalar", 8, 2, key=key)

    def __call__(self, x, offset):
        return self.mlp(x) + offset


def decay_only_weights(params, model):
    """True on the Linear weights, False on the biases."""
    weights = lambda m: [lin.weight for lin in m.mlp.layers]
    base = jax.tree_util.tree_map(lambda _: False, params)
    return eqx.tree_at(weights, base, [True] * len(weights(model)))


def make_optimizer(params, model, total_steps):
    schedule = optax.cosine_decay_schedule(3e-3, total_steps)
    mask = decay_only_weights(params, model)
    # inject the learning rate so it can be read back from opt_state.hyperparams
    return optax.inject_hyperparams(optax.adamw)(learning_rate=schedule, weight_decay=1e-2, mask=mask)  # expect


if __name__ == "__main__":
    model = Regressor(jax.random.key(1))
    params, static = eqx.partition(model, eqx.is_inexact_array)
    opt = make_optimizer(params, model, total_steps=100)
    try:
        state = opt.init(params)  # expect
    except (ValueError, TypeError) as e:
        print("HAZARD:", type(e).__name__, str(e)[:120])
        raise SystemExit(1)
    print("lr", state.hyperparams["learning_rate"])
