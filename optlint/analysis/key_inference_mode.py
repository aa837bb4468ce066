"""An Equinox model switched to inference mode (`eqx.nn.inference_mode(model)`: a `ModuleValue`
with `inference`) whose every draw is a layer that draws only in training: calling it draws
nothing from the key it is given (`quiet_in_inference`).

Equinox's switch sets the `inference` field of every layer of the model, the model's own
sub-modules' included. Measured on equinox 0.13.8 (tests/test_prng_keys_inference_mode.py):
a `Dropout` then gives the same output for any key and one key given twice raises no
`KeyReuseError`; a `MultiheadAttention` still splits its key (the checker raises), so it is
not such a layer (`key_consumers.QUIET_IN_INFERENCE`). A draw the model's `__call__` makes any
other way (`jax.random` itself, a helper function, a layer called with its own `inference=`
or through a transformation) still draws, and so does the model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, cast

import libcst as cst

from optlint.analysis.key_consumers import NO_DRAW_SWITCHES, QUIET_IN_INFERENCE
from optlint.analysis.values import ModuleValue

if TYPE_CHECKING:
    from optlint.analysis.index import CallSite
    from optlint.analysis.prng_keys import Consumption
    from optlint.context import RuleContext

# How many sub-modules deep a model's `__call__` is followed.
_DEPTH = 4


class _Owners(Protocol):
    owner_of: dict[int, object]


class _Flow(Protocol):
    every: list[Consumption]


class _Calls(Protocol):
    """What is asked of the key flow of the file that defines a method (`FileKeyCalls`)."""

    ctx: RuleContext
    sites: dict[int, CallSite]

    @property
    def foreign(self) -> _Owners: ...

    @property
    def targets(self) -> _Targets: ...

    def summary(self, node: cst.FunctionDef) -> _Flow | None: ...


class _Targets(Protocol):
    resolve: Callable[[cst.Call], object]


def quiet_in_inference(calls: object, function: cst.FunctionDef, flow: object,
                       depth: int = _DEPTH) -> bool:
    """Every draw of `function` (a model's `__call__`, summarised by `flow`) is a layer of the
    model that draws only in training (a sub-module's `__call__` followed in turn)."""
    owner = cast(_Calls, cast(_Calls, calls).foreign.owner_of.get(id(function), calls))
    params = function.params.params
    if not params or depth == 0:
        return False
    self_name = params[0].name.value
    return all(_quiet(owner, use, self_name, depth) for use in cast(_Flow, flow).every)


def _quiet(owner: _Calls, use: Consumption, self_name: str, depth: int) -> bool:
    func = use.call.func
    if (use.unseen or not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name)
            or func.value.value != self_name or any(
                arg.keyword is not None and arg.keyword.value in NO_DRAW_SWITCHES
                for arg in use.call.args)):
        return False  # not a layer of the model, or switched by the call itself
    site = owner.sites.get(id(use.call))
    value = owner.ctx.value(func, site) if site is not None else None
    if not isinstance(value, ModuleValue) or value.derived_by is not None:
        return False
    if value.cls is None:  # a library layer (`eqx.nn.Dropout`)
        return value.class_name in QUIET_IN_INFERENCE
    resolved = owner.targets.resolve(use.call)
    if not isinstance(resolved, tuple):
        return False
    method = resolved[0]
    inner = owner.summary(method)
    return inner is not None and quiet_in_inference(owner, method, inner, depth - 1)
