# recall-case: positive
# rule: OPT010
# source: https://github.com/patrick-kidger/equinox/pull/684
# source: https://github.com/patrick-kidger/equinox/issues/681
# shown: HAZARD: ValueError pytree structure error: different types at key path (dropout p/inference got optimizer state, their gradients are None)
# style: eqx.partition(model, eqx.is_array_like) into params/static, optimizer initialised on that half, filter_jit step over the halves
import jax
import jax.numpy as jnp
import equinox as eqx
import optax


class Attention(eqx.Module):
    qkv: eqx.nn.Linear
    proj: eqx.nn.Linear
    drop: eqx.nn.Dropout

    def __init__(self, key, dim=8):
        k1, k2 = jax.random.split(key)
        self.qkv = eqx.nn.Linear(dim, 3 * dim, key=k1)
        self.proj = eqx.nn.Linear(dim, dim, key=k2)
        self.drop = eqx.nn.Dropout(0.1)

    def __call__(self, x, key):
        q, k, v = jnp.split(jax.vmap(self.qkv)(x), 3, axis=-1)
        att = self.drop(jax.nn.softmax(q @ k.T / jnp.sqrt(q.shape[-1])), key=key)
        return jax.vmap(self.proj)(att @ v)


def train(model, xs, key, lr=1e-3):
    params, static = eqx.partition(model, eqx.is_array_like)
    optim = optax.adam(lr)
    opt_state = optim.init(params)  # expect

    @eqx.filter_jit
    def step(params, opt_state, x, k):
        grads = eqx.filter_grad(lambda m: jnp.mean(m(x, k) ** 2))(eqx.combine(params, static))
        updates, opt_state = optim.update(grads, opt_state)
        return eqx.apply_updates(params, updates), opt_state

    for x, k in zip(xs, jax.random.split(key, xs.shape[0])):
        params, opt_state = step(params, opt_state, x, k)
    return eqx.combine(params, static)


if __name__ == "__main__":
    model = Attention(jax.random.key(0))
    try:
        train(model, jnp.ones((3, 5, 8)), jax.random.key(1))
    except (ValueError, TypeError) as e:
        print("HAZARD:", type(e).__name__, str(e).splitlines()[0][:160])
        raise SystemExit(1)
    print("trained")
