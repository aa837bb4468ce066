"""The parameters a call must give through its `**mapping`: `gen_bm_noise(**kwargs)` where
`gen_bm_noise(random_key, n_points=100)` has no default for `random_key` and the call names it
neither by place nor by keyword, so a call that runs at all hands it `kwargs["random_key"]`
(signax b56d50e: `[gen_bm_noise(**kwargs) for _ in range(num_samples)]` drew every Brownian
path from the one key the caller put in `kwargs`). The mapping is followed as the key: the
same mapping given twice gives the same key twice. It is followed as its entry
(`kwargs.random_key`, shown as `kwargs["random_key"]`), which `kwargs["random_key"] = k` or
`kwargs.update(random_key=k)` binds anew.

Only a call with one `**` argument and no `*` argument (which could give the parameter by
place), and only parameters with no default: one with a default may come from the mapping or
not, which the call does not show.
"""

from __future__ import annotations

from dataclasses import replace

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.prng_keys import Consumption


def given_through_mapping(function: cst.FunctionDef, call: cst.Call, bound: bool
                          ) -> list[tuple[cst.Param, cst.BaseExpression]]:
    """(parameter, the `**` argument's mapping) for each parameter of `function` with no
    default that `call` can give only through its one `**` argument (`bound`: a method, its
    first parameter the object)."""
    mappings = [arg.value for arg in call.args if arg.star == "**"]
    if len(mappings) != 1 or any(arg.star == "*" for arg in call.args):
        return []
    params = function.params
    # Given by keyword only: not positional-only ones (nor `self`, which the object fills).
    named = list(params.params)
    if bound and not params.posonly_params:
        named = named[1:]
    given = {id(param) for param, _ in bind_arguments(function, call, bound)}
    return [(param, mappings[0]) for param in (*named, *params.kwonly_params)
            if param.default is None and id(param) not in given]


def in_mapping(use: Consumption, call: cst.Call, param: str) -> Consumption:
    """`use`, where `call` gives its key as the entry `param` of its `**` mapping named by a
    plain name: followed as that entry."""
    if not isinstance(use.key, cst.Name) or not any(
            arg.star == "**" and arg.value is use.key for arg in call.args):
        return use
    return replace(use, given_as=(use.key.value, param))
