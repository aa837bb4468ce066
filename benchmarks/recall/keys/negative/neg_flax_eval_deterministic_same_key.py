# recall-case: negative
# rule: OPT020
# class: other-library
# source: https://github.com/google/flax/pull/2631
# shown: runs with jax_debug_key_reuse on; the evaluation apply runs dropout with deterministic=True, so the dropout key reaches no draw; prints OK
# style: Flax linen train step then eval step sharing the step's rngs dict
import flax.linen as nn
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x, training: bool):
        x = nn.relu(nn.Dense(16)(x))
        x = nn.Dropout(0.5, deterministic=not training)(x)
        return nn.Dense(1)(x)


if __name__ == "__main__":
    model = MLP()
    params_key, dropout_key = jax.random.split(jax.random.key(0))
    x = jnp.ones((2, 3))
    variables = model.init(params_key, x, training=False)
    train_out = model.apply(variables, x, training=True, rngs={"dropout": dropout_key})
    eval_out = model.apply(variables, x, training=False, rngs={"dropout": dropout_key})
    assert bool(jnp.all(eval_out == model.apply(variables, x, training=False)))
    print("OK")
