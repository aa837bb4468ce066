# recall-case: negative
# rule: OPT010
# source: https://github.com/patrick-kidger/equinox/issues/772
# shown: '6 array-like leaves' printed; is_array_like only used to report leaves; optimizer on eqx.is_inexact_array; steps run (OK)
# style: Dropout model; is_array_like appears in a logging helper, not in what the optimizer sees
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


def describe(model):
    leaves = jax.tree_util.tree_leaves(eqx.filter(model, eqx.is_array_like))
    return f"{len(leaves)} array-like leaves"


if __name__ == "__main__":
    k1, k2 = jax.random.split(jax.random.key(0))
    model = eqx.nn.Sequential([eqx.nn.Linear(4, 8, key=k1), eqx.nn.Dropout(0.2), eqx.nn.Linear(8, 1, key=k2)])
    print(describe(model))
    optim = optax.adamw(1e-3)
    opt_state = optim.init(eqx.filter(model, eqx.is_inexact_array))
    x = jnp.ones((4,))
    for k in jax.random.split(jax.random.key(1), 3):
        grads = eqx.filter_grad(lambda m: jnp.sum(m(x, key=k) ** 2))(model)
        updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_inexact_array))
        model = eqx.apply_updates(model, updates)
    print("OK")
