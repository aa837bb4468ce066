"""Keys a callee makes from a seed its call does not give: `noise(shape)` where `noise(shape,
seed=0)` makes its key from `seed` makes the key of the default seed at every such call, one key
drawn from again and again; so does a callee making its key from a literal seed in its body
(`key = PRNGKey(0)`, `handlers.seed(model, rng_seed=0)`), and one drawing from a key parameter
whose default is a key made from a literal seed (`def init_kernel(x, rng=PRNGKey(0))`, numpyro
7f0605f: every chain that left `rng` out drew the same momenta)."""

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


def default_keys(call: cst.Call, function: cst.FunctionDef, bound: bool, flow: KeyRecorder,
                 how: str, stepping: bool) -> list[Consumption]:
    """`init_kernel(x)` where `init_kernel(x, rng=PRNGKey(0))` draws from `rng`: the call draws
    from the key of the default's seed, followed as that seed (`int:0`)."""
    if any(arg.star for arg in call.args):
        return []
    passed = {param.name.value for param, _ in bind_arguments(function, call, bound)}
    uses = []
    for param in (*function.params.posonly_params, *function.params.params,
                  *function.params.kwonly_params):
        name = param.name.value
        literal = _literal_key_seed(param.default)
        if (literal is None or name in passed or name not in flow.consumed_params
                or flow.param_uses[name].kind not in ("draw", "split")):
            continue
        inner = flow.param_uses[name]
        assert isinstance(param.default, cst.Call)
        uses.append(Consumption(call, literal, how, library=False, stepping=stepping,
                                seeded_in=param.default, kind=inner.kind, unseen=inner.unseen,
                                derives=inner.derives,
                                proof=f"`{function.name.value}` draws from `{name}`, whose "
                                      f"default is a key made from the literal seed "
                                      f"{literal.value}"))
    return uses


def _literal_key_seed(default: cst.BaseExpression | None) -> cst.Integer | None:
    """The seed of a default `PRNGKey(0)` / `jax.random.key(0)` (by the name written: a
    default is evaluated where the function is defined)."""
    if not isinstance(default, cst.Call) or len(default.args) != 1:
        return None
    func = default.func
    named = (func.value if isinstance(func, cst.Name) else
             func.attr.value if isinstance(func, cst.Attribute) else "")
    seed = default.args[0].value
    maker = named == "PRNGKey" or (named == "key" and isinstance(func, cst.Attribute)
                                   and isinstance(func.value, (cst.Name, cst.Attribute))
                                   and _last(func.value) == "random")
    return seed if maker and isinstance(seed, cst.Integer) else None


def _last(expr: cst.Name | cst.Attribute) -> str:
    return expr.value if isinstance(expr, cst.Name) else expr.attr.value


def _derives_only(flow: KeyRecorder, seeding: Consumption) -> bool:
    """Every draw of the callee, besides making its key from the seed, is a library's that
    derives its keys with data of its own (flax `init`: `key_derived.py`): so is the call's."""
    draws = [use for use in flow.every if use is not seeding]
    return bool(draws) and all(use.derives and not use.unseen for use in draws)
