# recall-case: negative
# rule: OPT001
# source: https://github.com/google-deepmind/optax/issues/1373
# shown: init and update run; weights decay, biases do not (OK)
# style: the fix from the thread: inject_hyperparams(adamw, static_args="mask") with a module-shaped mask
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


def build(model, params):
    weights = lambda m: [lin.weight for lin in m.layers]
    mask = eqx.tree_at(weights, jax.tree_util.tree_map(lambda _: False, params), [True] * len(weights(model)))
    sched = optax.cosine_decay_schedule(1e-2, 100)
    return optax.inject_hyperparams(optax.adamw, static_args="mask")(learning_rate=sched, weight_decay=0.5, mask=mask)


if __name__ == "__main__":
    model = eqx.nn.MLP(2, 2, 4, 1, key=jax.random.key(0))
    params, static = eqx.partition(model, eqx.is_inexact_array)
    opt = build(model, params)
    state = opt.init(params)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    updates, state = opt.update(zeros, state, params)
    print("weight update", float(jnp.abs(updates.layers[0].weight).max()), "bias update", float(jnp.abs(updates.layers[0].bias).max()))
    assert float(jnp.abs(updates.layers[0].bias).max()) == 0.0
    print("OK")
