# recall-case: negative
# rule: OPT020
# class: project-consumer
# source: https://github.com/patrick-kidger/equinox/issues/498
# shown: runs with jax_debug_key_reuse on; the second call runs dropout in inference mode and draws nothing; prints OK
# style: Equinox model evaluated after a training forward pass with the same key
import equinox as eqx
import jax
import jax.numpy as jnp

jax.config.update("jax_debug_key_reuse", True)


class Net(eqx.Module):
    linear: eqx.nn.Linear
    dropout: eqx.nn.Dropout

    def __init__(self, *, key):
        self.linear = eqx.nn.Linear(3, 8, key=key)
        self.dropout = eqx.nn.Dropout(0.5)

    def __call__(self, x, *, key, inference=False):
        return self.dropout(self.linear(x), key=key, inference=inference)


def train_then_eval(model, x, key):
    train_out = model(x, key=key)
    eval_out = model(x, key=key, inference=True)
    return train_out, eval_out


if __name__ == "__main__":
    init_key, step_key = jax.random.split(jax.random.key(0))
    train_out, eval_out = train_then_eval(Net(key=init_key), jnp.ones(3), step_key)
    assert bool(jnp.all(eval_out != 0))
    print("OK")
