"""Loops over the batches of a data loader count steps: `for batch in tqdm(loader)` with
`loader = torch.utils.data.DataLoader(...)` runs one training, evaluation or generation step per
batch, as `for step in range(n)` does, so a library draw given one key on every iteration draws
the same numbers on every step (diffusers de82e59: every batch of class images generated from
one key). A loop over other items (`for beta in betas`) is a loop over settings, where one key
for each is often meant (`key_reported_reuses.py`).

The loaders are rows: what makes an object whose iteration yields one batch per step."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

if TYPE_CHECKING:
    from optlint.analysis.index import Scope
    from optlint.context import RuleContext

# Makers of objects iterated one batch per step.
BATCH_LOADERS = frozenset({
    "torch.utils.data.DataLoader", "torch.utils.data.dataloader.DataLoader",
})
# Wrappers iterating what they are given, item by item (a progress bar, a counter).
_PASSING_THROUGH = frozenset({"enumerate", "tqdm", "tqdm.tqdm", "tqdm.auto.tqdm"})


def iterates_batches(ctx: RuleContext, loop: cst.For, scope: Scope | None) -> bool:
    """`loop` iterates a data loader, in place or bound in `scope` to a loader only."""
    iterable = loop.iter
    while isinstance(iterable, cst.Call) and iterable.args and not iterable.args[0].star and (
            _name(ctx, iterable.func) in _PASSING_THROUGH):
        iterable = iterable.args[0].value
    if isinstance(iterable, cst.Call):
        return _name(ctx, iterable.func) in BATCH_LOADERS
    if not isinstance(iterable, cst.Name) or scope is None:
        return False
    bindings = scope.bindings.get(iterable.value, [])
    return bool(bindings) and all(
        not binding.path and isinstance(binding.value, cst.Call)
        and _name(ctx, binding.value.func) in BATCH_LOADERS for binding in bindings)


def _name(ctx: RuleContext, func: cst.BaseExpression) -> str:
    if isinstance(func, cst.Name) and func.value == "enumerate":
        return "enumerate"
    return ctx.qualify(func) or ""
