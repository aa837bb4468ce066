# recall-case: negative
# rule: OPT017
# source: https://github.com/google-deepmind/optax/pull/877
# shown: OK sgd update shrank to 10% with the plateau scale
# style: trainer class, reduce_on_plateau before plain sgd (not scale-invariant)
import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(x)


class Trainer:
    def __init__(self, lr=1e-2):
        self.model = Net()
        self.tx = optax.chain(
            optax.contrib.reduce_on_plateau(factor=0.1, patience=5, cooldown=10_000),
            optax.sgd(lr),
        )

    def init(self, key, x):
        self.params = self.model.init(key, x)
        self.opt_state = self.tx.init(self.params)

    def run(self, x, eval_loss, steps):
        def body(carry, _):
            params, opt_state = carry
            grads = jax.grad(lambda p: jnp.mean(self.model.apply(p, x)))(params)
            updates, opt_state = self.tx.update(grads, opt_state, params, value=eval_loss)
            return (optax.apply_updates(params, updates), opt_state), optax.global_norm(updates)

        (self.params, self.opt_state), sizes = jax.lax.scan(body, (self.params, self.opt_state), None, length=steps)
        return sizes


if __name__ == "__main__":
    x = jnp.ones((8, 4))
    t = Trainer()
    t.init(jax.random.key(0), x)
    sizes = t.run(x, jnp.asarray(0.7), 100)
    ratio = float(sizes[-1] / sizes[0])
    assert ratio < 0.2
    print(f"OK sgd update shrank to {ratio:.0%} with the plateau scale")
