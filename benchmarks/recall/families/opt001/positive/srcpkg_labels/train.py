# recall-case: positive
# rule: OPT001
# source: https://github.com/patrick-kidger/equinox/issues/266
# source: https://github.com/marin-community/levanter/pull/405
# shown: TypeError: unsupported operand type(s) for @: 'str' and 'Tower' at tx.init
# style: src-layout package: labels built in twolr/labels.py, optimizer in twolr/optim.py, used here
import jax
import jax.numpy as jnp
import equinox as eqx

from twolr.model import Tower
from twolr.optim import build_tx


def main():
    model = Tower(jax.random.key(0))
    tx = build_tx(model)
    params = eqx.filter(model, eqx.is_inexact_array)
    return tx.init(params)  # expect


if __name__ == "__main__":
    try:
        main()
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("initialised")
