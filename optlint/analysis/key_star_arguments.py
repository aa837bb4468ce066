"""The parameters a call must give through its `**mapping`: `gen_bm_noise(**kwargs)` where
`gen_bm_noise(random_key, n_points=100)` has no default for `random_key` and the call names it
neither by place nor by keyword, so a call that runs at all hands it `kwargs["random_key"]`
(signax b56d50e: `[gen_bm_noise(**kwargs) for _ in range(num_samples)]` drew every Brownian
path from the one key the caller put in `kwargs`). The mapping is followed as the key: the
same mapping given twice gives the same key twice.

Only a call with one `**` argument and no `*` argument (which could give the parameter by
place), and only parameters with no default: one with a default may come from the mapping or
not, which the call does not show.
"""

from __future__ import annotations

import libcst as cst

from optlint.analysis.binding import bind_arguments


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
