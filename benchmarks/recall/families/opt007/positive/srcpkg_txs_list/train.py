# recall-case: positive
# rule: OPT007
# source: https://github.com/google/brax/issues/647
# source: https://github.com/google-deepmind/optax/issues/494
# shown: HAZARD: ValueError You are using a transformation that requires the current value of parameters, but you are not passing `params` when calling `update`. (add_decayed_weights enabled by the CLI default --weight-decay 0.01)
# style: src-layout package: argparse defaults in trainkit/cli.py, parts assembled in a list in trainkit/optim.py, Equinox model, update without params
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

import jax
import jax.numpy as jnp
import equinox as eqx

from trainkit.cli import parse
from trainkit.optim import build_optimizer


def main(argv):
    args = parse(argv)
    model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.key(0))
    optim = build_optimizer(args)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))

    @eqx.filter_jit
    def step(model, opt_state, x, y):
        grads = eqx.filter_grad(lambda m: jnp.mean((jax.vmap(m)(x) - y) ** 2))(model)
        updates, opt_state = optim.update(grads, opt_state)  # expect
        return eqx.apply_updates(model, updates), opt_state

    return step(model, opt_state, jnp.ones((4, 2)), jnp.zeros((4, 1)))


if __name__ == "__main__":
    try:
        main([])
    except (TypeError, ValueError) as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("stepped")
