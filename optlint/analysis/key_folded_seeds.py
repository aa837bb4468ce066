"""A function making its key from a seed parameter and folding in another parameter straight
away: `self.key = fold_in(key(seed), device)` (elodin's sensor `Noise(seed, device, ...)`,
built as `Noise(0, 0, ...)`, `Noise(0, 1, ...)`, `Noise(0, 2, ...)` for three sensors). Two calls
given one seed make one key only when they also give the same data: the caller's seed is
followed folded with the argument given for the data (`0` folded with `1`), as a `fold_in` in
the caller's own body is, so `Noise(0, 0)` and `Noise(0, 1)` are two keys and a second
`Noise(0, 1)` the same key again. Data the flow cannot compare (anything but an int literal or
a plain name) makes a key of its own.
"""

from __future__ import annotations

from dataclasses import replace

import libcst as cst

from optlint.analysis.binding import argument, argument_for
from optlint.analysis.key_library_calls import last_name
from optlint.analysis.prng_keys import Consumption, key_name
from optlint.analysis.walk import child_nodes


def folded_seed(use: Consumption, function: cst.FunctionDef, call: cst.Call,
                bound: bool) -> Consumption:
    """`use` (what `call` consumes giving a seed `function` makes its key from), followed
    folded with the data `call` gives, where the key made is folded with a parameter first."""
    if use.seeded_in is None or use.followed:
        return use
    data = _folded_param(function, use.seeded_in)
    given = key_name(use.key, literal=True)
    if data is None or given is None:
        return use
    found = argument_for(call, function, data.name.value, bound)
    if found is None and data.default is not None:
        found = data.default
    data_name = key_name(found, literal=True) if found is not None else None
    # Not followed as a fold of `int:0` (that is a key made in place, `seed(model, rng_seed=0)`)
    # but as a seed of its own, the seed and the data together (`0 (folded with 1)`, as the
    # messages show it).
    token = data_name.removeprefix("int:") if data_name is not None else f"\x00{id(call)}"
    return replace(use, followed=f"{given.removeprefix('int:')} (folded with {token})")


def _folded_param(function: cst.FunctionDef, made: cst.Call) -> cst.Param | None:
    """The parameter of `function` that `fold_in(made, param)` folds into the key `made`
    makes, where `made` is given straight to a `fold_in`."""
    params = {param.name.value: param for param in (
        *function.params.posonly_params, *function.params.params,
        *function.params.kwonly_params)}
    pending: list[cst.CSTNode] = [function.body]
    while pending:
        node = pending.pop()
        if isinstance(node, cst.Call) and last_name(node.func) == "fold_in" and node.args \
                and node.args[0].value is made:
            data = argument(node, 1, "data")
            if data is not None and isinstance(data.value, cst.Name):
                return params.get(data.value.value)
            return None
        pending.extend(child_nodes(node))
    return None
