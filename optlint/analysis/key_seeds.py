"""Keys a callee makes from a seed its call does not give: `noise(shape)` where `noise(shape,
seed=0)` makes its key from `seed` makes the key of the default seed at every such call, one key
drawn from again and again; so does a callee making its key from a literal seed in its body
(`key = PRNGKey(0)`, `handlers.seed(model, rng_seed=0)`)."""

from __future__ import annotations

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.key_record import KeyRecorder
from optlint.analysis.key_seeded_splits import seeded_kind
from optlint.analysis.prng_keys import Consumption


def default_seeds(call: cst.Call, function: cst.FunctionDef, bound: bool, flow: KeyRecorder,
                  how: str, stepping: bool) -> list[Consumption]:
    """`noise(shape)` where `noise(shape, seed=0)` makes its key from `seed`: the call makes
    the key of the default seed, as every other call leaving it out does."""
    if any(arg.star for arg in call.args):
        return []
    passed = {param.name.value for param, _ in bind_arguments(function, call, bound)}
    return [Consumption(call, param.default, how, library=False, stepping=stepping,
                        seeded_in=flow.param_uses[param.name.value].call,
                        kind=seeded_kind(function, flow.param_uses[param.name.value].call,
                                         flow.every),
                        derives=_derives_only(flow, flow.param_uses[param.name.value]),
                        proof=f"`{function.name.value}` makes its key from `{param.name.value}`,"
                              f" whose default is {param.default.value}")
            for param in (*function.params.posonly_params, *function.params.params,
                          *function.params.kwonly_params)
            if param.name.value not in passed and isinstance(param.default, cst.Integer)
            and param.name.value in flow.consumed_params
            and flow.param_uses[param.name.value].kind == "seed"]


def constant_seeds(call: cst.Call, function: cst.FunctionDef, flow: KeyRecorder, how: str,
                   stepping: bool) -> list[Consumption]:
    """`noise(x)` where `noise` draws from `PRNGKey(0)` made in its body: every call draws from
    the key of that seed, followed as the seed itself (`int:0`)."""
    return [Consumption(call, literal, how, library=False, stepping=stepping, seeded_in=made,
                        kind=seeded_kind(function, made, flow.every),
                        derives=inner.derives, proof=f"`{function.name.value}` makes its key from the literal seed "
                              f"{literal.value} on every call")
            for inner, made, literal in flow.constant_uses.values() if not inner.unseen]


def _derives_only(flow: KeyRecorder, seeding: Consumption) -> bool:
    """Every draw of the callee, besides making its key from the seed, is a library's that
    derives its keys with data of its own (flax `init`: `key_derived.py`): so is the call's."""
    draws = [use for use in flow.every if use is not seeding]
    return bool(draws) and all(use.derives and not use.unseen for use in draws)
