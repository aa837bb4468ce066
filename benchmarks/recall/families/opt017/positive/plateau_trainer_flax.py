# recall-case: positive
# rule: OPT017
# source: https://github.com/google-deepmind/optax/pull/877
# shown: HAZARD: lr scale 0.1 after the plateau, yet late updates are 96% of early ones
# style: trainer class, Flax linen, optimizer on self, value= passed from an eval loss
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


class Trainer:
    def __init__(self, lr=1e-2, patience=5, factor=0.1):
        self.model = Net()
        self.tx = optax.chain(  # expect
            optax.contrib.reduce_on_plateau(factor=factor, patience=patience, cooldown=10_000),
            optax.adamw(lr, weight_decay=0.0),
        )

    def init(self, key, x):
        self.params = self.model.init(key, x)
        self.opt_state = self.tx.init(self.params)

    def run_epoch(self, x, y, eval_loss, steps):
        def body(carry, _):
            params, opt_state = carry
            grads = jax.grad(lambda p: jnp.mean(self.model.apply(p, x) - y))(params)
            updates, opt_state = self.tx.update(grads, opt_state, params, value=eval_loss)
            size = optax.global_norm(updates)
            return (optax.apply_updates(params, updates), opt_state), size

        (self.params, self.opt_state), sizes = jax.jit(
            lambda c: jax.lax.scan(body, c, None, length=steps)
        )((self.params, self.opt_state))
        return sizes


if __name__ == "__main__":
    x = jnp.ones((8, 4))
    y = jnp.zeros((8, 1))
    t = Trainer()
    t.init(jax.random.key(0), x)
    sizes = t.run_epoch(x, y, jnp.asarray(0.7), 2000)
    scale = float(optax.tree.get(t.opt_state, "scale"))
    ratio = float(sizes[-1] / sizes[0])
    print(f"HAZARD: lr scale {scale:.1f} after the plateau, yet late updates are {ratio:.0%} of early ones"
          if ratio > 2 * scale else "OK")
