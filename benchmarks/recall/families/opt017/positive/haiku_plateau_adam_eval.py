# recall-case: positive
# rule: OPT017
# source: https://github.com/google-deepmind/optax/pull/877
# shown: HAZARD: plateau reduced the lr to x0.1, but adam's late update norm is 97% of the early one
# style: Haiku, jitted update taking the eval loss, optimizer built as a module-level global
import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    return hk.Linear(2)(x)


net = hk.without_apply_rng(hk.transform(forward))
optimizer = optax.chain(optax.contrib.reduce_on_plateau(patience=10, factor=0.1, cooldown=10_000), optax.adam(3e-4))  # expect


@jax.jit
def train_chunk(params, opt_state, x, eval_loss):
    def body(carry, _):
        params, opt_state = carry
        grads = jax.grad(lambda p: jnp.mean(net.apply(p, x)))(params)
        updates, opt_state = optimizer.update(grads, opt_state, params, value=eval_loss)
        return (optax.apply_updates(params, updates), opt_state), optax.global_norm(updates)

    return jax.lax.scan(body, (params, opt_state), None, length=3000)


if __name__ == "__main__":
    x = jnp.ones((4, 3))
    params = net.init(jax.random.key(0), x)
    opt_state = optimizer.init(params)
    (params, opt_state), norms = train_chunk(params, opt_state, x, jnp.asarray(1.3))
    scale = float(optax.tree.get(opt_state, "scale"))
    ratio = float(norms[-1] / norms[0])
    print(f"HAZARD: plateau reduced the lr to x{scale:.1f}, but adam's late update norm is {ratio:.0%} of the early one"
          if ratio > 2 * scale else "OK")
