"""Draws whose range holds one value: `jax.random.randint(key, shape, 0, 1)` gives zeros whatever
the key, so its result carries nothing of the key: no draw for a reuse. JAX's checker still sees
the key consumed, but nothing random reaches a result (issue #25's rule; JaxMARL's storm
environments and pax's `in_the_matrix.py` draw `rand_idx = randint(subkey, (), 0, 1)` for a
fixed coin after drawing from `subkey`, labelled false by running). Only literal bounds count.
"""

from __future__ import annotations

import libcst as cst

from optlint.analysis.binding import argument

# A `jax.random` sampler, with the positions and names of its lower and upper bound: a range
# `[minval, maxval)` of one integer or none gives `minval` every time.
_INTEGER_RANGES = {"randint": ((2, "minval"), (3, "maxval"))}


def draws_one_value(name: str, call: cst.Call) -> bool:
    """`call` of `jax.random.<name>` has literal bounds leaving one value to draw."""
    bounds = _INTEGER_RANGES.get(name)
    if bounds is None:
        return False
    low, high = (_literal_int(argument(call, position, keyword)) for position, keyword in bounds)
    return low is not None and high is not None and high - low <= 1


def _literal_int(arg: cst.Arg | None) -> int | None:
    if arg is None:
        return None
    value, sign = arg.value, 1
    if isinstance(value, cst.UnaryOperation) and isinstance(value.operator, cst.Minus):
        value, sign = value.expression, -1
    return sign * int(value.value, 0) if isinstance(value, cst.Integer) else None
