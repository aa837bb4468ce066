# recall-case: negative
# rule: OPT002
# source: https://github.com/google-deepmind/optax/issues/57
# shown: kernel 0.9044 after 10 zero-gradient steps, bias 1.0000, lr readable from state (OK)
# style: config dataclass; learning rate injected on its own, the mask function given to optax.masked outside inject_hyperparams
import dataclasses

import jax
import jax.numpy as jnp
import optax


@dataclasses.dataclass
class Cfg:
    lr: float = 0.1
    wd: float = 0.1


def decay_mask(params):
    return jax.tree_util.tree_map(lambda x: x.ndim > 1, params)


def build(cfg: Cfg):
    return optax.chain(
        optax.scale_by_adam(),
        optax.masked(optax.add_decayed_weights(cfg.wd), decay_mask),
        optax.inject_hyperparams(optax.scale_by_learning_rate)(learning_rate=cfg.lr),
    )


if __name__ == "__main__":
    params = {"kernel": jnp.ones((2, 2)), "bias": jnp.ones(2)}
    tx = build(Cfg())
    state = tx.init(params)
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    for _ in range(10):
        updates, state = tx.update(zeros, state, params)
        params = optax.apply_updates(params, updates)
    print(f"kernel {float(params['kernel'][0, 0]):.4f}, bias {float(params['bias'][0]):.4f}, lr {float(state[2].hyperparams['learning_rate'])}")
    assert float(params["kernel"][0, 0]) < 0.95 and float(params["bias"][0]) == 1.0
    print("OK")
