# recall-case: positive
# rule: OPT003
# source: https://github.com/patrick-kidger/equinox/issues/105
# source: https://github.com/patrick-kidger/equinox/issues/69
# shown: HAZARD: TypeError zeros_like requires ndarray or scalar arguments, got <class 'function'> at position 0.
# style: package: a generic fit loop (fitkit/loop.py) gets a user model factory (zoo/heads.py) whose module stores an activation; init(model) happens in the loop
import jax.numpy as jnp
import optax

from fitkit.loop import fit
from zoo.heads import make_head

if __name__ == "__main__":
    x, y = jnp.ones((8, 4)), jnp.zeros((8, 2))
    try:
        fit(make_head, optax.adamw(1e-3), x, y)  # expect
    except TypeError as e:
        print("HAZARD:", type(e).__name__, e)
        raise SystemExit(1)
    print("fitted")
