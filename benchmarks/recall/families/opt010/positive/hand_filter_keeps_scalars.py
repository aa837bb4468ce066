# recall-case: positive
# rule: OPT010
# source: https://github.com/patrick-kidger/equinox/issues/772
# source: https://github.com/patrick-kidger/equinox/issues/681
# shown: HAZARD: ValueError pytree structure error: different types at key path (the hand filter keeps Dropout's float p and bool inference)
# style: filter written by hand (arrays plus Python float/bool) instead of eqx.is_array_like, used for init and update of adamw
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


def is_param(x):
    # arrays, and the scalar hyperparameters we may want to tune later
    return isinstance(x, (jax.Array, float, bool))


class Mixer(eqx.Module):
    token_mlp: eqx.nn.MLP
    drop: eqx.nn.Dropout

    def __init__(self, key):
        self.token_mlp = eqx.nn.MLP(6, 6, 12, 1, activation=jax.nn.gelu, key=key)
        self.drop = eqx.nn.Dropout(0.1)

    def __call__(self, x, key):
        return self.drop(self.token_mlp(x), key=key)


if __name__ == "__main__":
    model = Mixer(jax.random.key(0))
    optim = optax.adamw(1e-3)
    opt_state = optim.init(eqx.filter(model, is_param))  # expect
    x = jnp.ones((6,))
    try:
        grads = eqx.filter_grad(lambda m: jnp.sum(m(x, jax.random.key(1)) ** 2))(model)
        updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, is_param))
        model = eqx.apply_updates(model, updates)
    except (ValueError, TypeError) as e:
        print("HAZARD:", type(e).__name__, str(e).splitlines()[0][:160])
        raise SystemExit(1)
    print("updated")
