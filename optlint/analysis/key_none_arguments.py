"""A key parameter with a `None` fallback (`if dropout_rng is None: dropout_rng = make_rng()`,
`key_default_branches.keep_given_key`), given by a caller a parameter of its own that defaults
to `None` and that it never binds anew. Whether that caller is ever given a key is not seen here:
given none, each call falls back to a key of its own. So such a consumption is `--preview`.
Long-range-arena's sinkhorn attention calls `local_dot_product_attention(..., dropout_rng=
dropout_rng)` twice with its own `dropout_rng=None`, which no caller in the repository sets:
both calls draw from `make_rng()`, two keys.

That doubt belongs to the reuse inside the caller, not to what its callers read of it: a caller
of the caller gives a key of its own (vllm's runner gives the stored sampling key to
`RejectionSampler.__call__(..., key=None)`, which hands it to `forward`, which hands it to
`rejection_sample`), so the summary drops it (`for_callers`). Where that caller hands on a
`None`-defaulting parameter of its own in turn, the doubt is raised again there.
"""

from __future__ import annotations

from dataclasses import replace

import libcst as cst

from optlint.analysis.index import Scope
from optlint.analysis.key_default_branches import falls_back
from optlint.analysis.prng_keys import Consumption
from optlint.context import RuleContext


_DEFAULTS_TO_NONE = "`{name}` defaults to `None`, and given `None` "


def unless_none_given(ctx: RuleContext, use: Consumption, function: cst.FunctionDef,
                      param: str, inner: Consumption | None) -> Consumption:
    """`use` (what its call consumes giving its key as `param` of `function`, which consumes it
    as `inner`), `--preview` where `function` falls back to a key of its own for `None`, or
    hands `param` on to a function that does, and the key given is a parameter of the caller
    that defaults to `None`."""
    key = use.key
    if use.unseen or not isinstance(key, cst.Name) or not (
            falls_back(function, param) or (inner is not None and handed_on_none(inner, param))):
        return use
    site = ctx.site_of(use.call)
    if site is None or not _none_by_default(site.scope, key.value):
        return use
    return replace(use, unseen=(
        _DEFAULTS_TO_NONE.format(name=key.value) + f"`{function.name.value}` makes a key "
        f"of its own; whether a caller gives one is not seen"))


def handed_on_none(inner: Consumption, param: str) -> bool:
    """Whether `inner`, a function's consumption of its parameter `param`, is `--preview` only
    because the function hands `param`, defaulting to `None`, to one falling back for it."""
    return (isinstance(inner.key, cst.Name) and inner.key.value == param
            and inner.unseen.startswith(_DEFAULTS_TO_NONE.format(name=param)))


def for_callers(inner: Consumption, param: str) -> str:
    """What a caller giving `param` a key of its own reads of `inner`'s doubt: none where the
    doubt is only whether `param` is given."""
    return "" if handed_on_none(inner, param) else inner.unseen


def _none_by_default(scope: Scope | None, name: str) -> bool:
    """`name`, seen from `scope`, is a parameter defaulting to `None` and bound nowhere else."""
    while scope is not None and name not in scope.bindings:
        scope = scope.parent
    if scope is None:
        return False
    bindings = scope.bindings[name]
    return all(binding.kind == "param" for binding in bindings) and any(
        isinstance(binding.node, cst.Param) and isinstance(binding.node.default, cst.Name)
        and binding.node.default.value == "None" for binding in bindings)
