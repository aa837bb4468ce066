# recall-case: negative
# rule: OPT020
# class: other-library
# source: https://github.com/patrick-kidger/equinox/issues/357 (the BERT example's `eqx.nn.Dropout`: "dropout simply doesn't do anything when called with inference=True"; the maintainer: masking and rescaling happen only in training)
# shown: the step's training loss draws a dropout mask from `key`; the same `key` then goes to the evaluation of the model switched to `eqx.nn.inference_mode`, whose Dropout draws nothing (the eval loss is the same for any key); JAX's key-reuse checker stays silent with a typed key (OK)
# style: Equinox trainer: an eqx.Module classifier with Dropout, filter_jit / filter_value_and_grad training step, a per-step report that evaluates the inference-mode copy
"""One Equinox training step followed by an evaluation of the inference-mode model."""
import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class Classifier(eqx.Module):
    hidden: eqx.nn.Linear
    dropout: eqx.nn.Dropout
    head: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        self.hidden = eqx.nn.Linear(8, 32, key=k1)
        self.dropout = eqx.nn.Dropout(p=0.5)
        self.head = eqx.nn.Linear(32, 3, key=k2)

    def __call__(self, x, *, key):
        return self.head(self.dropout(jax.nn.relu(self.hidden(x)), key=key))


def loss_fn(model, x, y, key):
    keys = jax.random.split(key, x.shape[0])
    logits = jax.vmap(lambda xi, ki: model(xi, key=ki))(x, keys)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


@eqx.filter_jit
def eval_loss_fn(model, x, y, key):
    # the report passes the step's key along; in inference mode the Dropout ignores it
    logits = jax.vmap(lambda xi: model(xi, key=key))(x)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


@eqx.filter_jit
def train_step(model, opt_state, x, y, key, optim):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y, key)
    updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
    return eqx.apply_updates(model, updates), opt_state, loss


def main() -> None:
    jax.config.update("jax_debug_key_reuse", True)
    init_key, data_key, step_key = jax.random.split(jax.random.key(0), 3)
    model = Classifier(init_key)
    optim = optax.adam(1e-2)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    x = jax.random.normal(data_key, (16, 8))
    y = jnp.arange(16) % 3
    step_key, train_key = jax.random.split(step_key)
    model, opt_state, train_loss = train_step(model, opt_state, x, y, train_key, optim)
    eval_model = eqx.nn.inference_mode(model)
    eval_loss = eval_loss_fn(eval_model, x, y, train_key)
    other = eval_loss_fn(eval_model, x, y, step_key)
    print("train loss", float(train_loss), "eval loss", float(eval_loss), "with another key", float(other))
    assert float(eval_loss) == float(other)
    print("OK")


if __name__ == "__main__":
    main()
