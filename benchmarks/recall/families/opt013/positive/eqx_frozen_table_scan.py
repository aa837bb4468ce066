# recall-case: positive
# rule: OPT013
# source: https://github.com/patrick-kidger/equinox/issues/866
# source: https://github.com/patrick-kidger/equinox/issues/909
# shown: HAZARD: sinusoidal table under stop_gradient decayed, max |delta| 0.0095
# style: Equinox, optimizer from a helper, lax.scan training loop, weight decay in a chain
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def sinusoid_table(n, d):
    pos = jnp.arange(n)[:, None]
    i = jnp.arange(d)[None, :]
    return jnp.sin(pos / 10000 ** (i / d))


class Encoder(eqx.Module):
    positions: jax.Array
    proj: eqx.nn.Linear

    def __init__(self, n, d, key):
        self.positions = sinusoid_table(n, d)
        self.proj = eqx.nn.Linear(d, d, key=key)

    def __call__(self, x):
        pe = jax.lax.stop_gradient(self.positions)
        return jax.vmap(self.proj)(x + pe)


def make_optimizer(lr=1e-2, wd=1e-2):
    return optax.chain(  # expect
        optax.clip_by_global_norm(1.0),
        optax.scale_by_adam(),
        optax.add_decayed_weights(wd),
        optax.scale(-lr),
    )


def train(model, x, steps):
    optim = make_optimizer()
    params, static = eqx.partition(model, eqx.is_array)
    opt_state = optim.init(params)

    def body(carry, _):
        params, opt_state = carry
        grads = jax.grad(lambda p: jnp.mean(eqx.combine(p, static)(x) ** 2))(params)
        updates, opt_state = optim.update(grads, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), None

    (params, _), _ = jax.lax.scan(body, (params, opt_state), None, length=steps)
    return eqx.combine(params, static)


if __name__ == "__main__":
    model = Encoder(6, 4, jax.random.key(0))
    x = jnp.ones((6, 4))
    trained = train(model, x, 100)
    delta = float(jnp.abs(trained.positions - model.positions).max())
    print(f"HAZARD: sinusoidal table under stop_gradient decayed, max |delta| {delta:.4f}" if delta else "OK")
