# recall-case: positive
# rule: OPT010
# source: https://github.com/patrick-kidger/equinox/issues/681
# source: https://github.com/patrick-kidger/equinox/issues/772
# shown: HAZARD: ValueError pytree structure error: different types at key path (scalars kept by is_array_like have None gradients)
# style: config dataclass (dropout rate default 0.2), model built from it, helper trainable() used for init and for the params given to adamw
import dataclasses

import jax
import jax.numpy as jnp
import equinox as eqx
import optax


@dataclasses.dataclass
class ModelConfig:
    width: int = 16
    dropout: float = 0.2
    lr: float = 1e-3


class Classifier(eqx.Module):
    hidden: eqx.nn.Linear
    drop: eqx.nn.Dropout
    out: eqx.nn.Linear

    def __init__(self, cfg, key):
        k1, k2 = jax.random.split(key)
        self.hidden = eqx.nn.Linear(4, cfg.width, key=k1)
        self.drop = eqx.nn.Dropout(cfg.dropout)
        self.out = eqx.nn.Linear(cfg.width, 3, key=k2)

    def __call__(self, x, *, key=None):
        return self.out(self.drop(jax.nn.relu(self.hidden(x)), key=key))


def trainable(model):
    # keep Python floats too, so the dropout rate travels with the params
    return eqx.filter(model, eqx.is_array_like)


def setup(cfg, key):
    model = Classifier(cfg, key)
    optim = optax.adamw(cfg.lr)
    return model, optim, optim.init(trainable(model))  # expect


@eqx.filter_jit
def step(model, optim, opt_state, x, y, key):
    keys = jax.random.split(key, x.shape[0])
    def loss(m):
        logits = jax.vmap(lambda xi, k: m(xi, key=k))(x, keys)
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))
    grads = eqx.filter_grad(loss)(model)
    updates, opt_state = optim.update(grads, opt_state, trainable(model))
    return eqx.apply_updates(model, updates), opt_state


if __name__ == "__main__":
    model, optim, opt_state = setup(ModelConfig(), jax.random.key(0))
    try:
        step(model, optim, opt_state, jnp.ones((4, 4)), jnp.array([0, 1, 2, 0]), jax.random.key(1))
    except (ValueError, TypeError) as e:
        print("HAZARD:", type(e).__name__, str(e).splitlines()[0][:160])
        raise SystemExit(1)
    print("stepped")
