"""A key the object holds, drawn from under a local name (held-out set 8: boingkiri/diffusion
23fe4a6, `sampling_key = self.eval_key` then `sampling_key, iterating_key =
jax.random.split(sampling_key, 2)` in every sampling method, `eval_key` set only by
`__init__`). Copying the field to a local name before splitting it is common ("give a fixed
key for evaluating"); the draw is from the field as the object holds it, and the field is not
advanced. Asked of the draws of methods (`key_unadvanced_fields.py`), which prove a repeated
call by the class's other methods or by a loop of the project."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.index import Scope
from optlint.analysis.prng_keys import Consumption

if TYPE_CHECKING:
    from optlint.context import RuleContext


def field_alias(ctx: RuleContext, scope: Scope, use: Consumption) -> cst.Attribute | None:
    """`self.K`, where `use` draws from a local name whose binding last before the draw, in the
    method `scope`, is `name = self.K` (no unpacking)."""
    key, self_name = use.key, scope.self_name
    site = ctx.site_of(use.call)
    if not isinstance(key, cst.Name) or self_name is None or site is None or site.scope is not scope:
        return None
    earlier = [binding for binding in scope.bindings.get(key.value, [])
               if binding.order < site.order]
    if not earlier:
        return None
    last = max(earlier, key=lambda binding: binding.order)
    value = last.value
    if (last.kind != "assign" or last.path or not isinstance(value, cst.Attribute)
            or not isinstance(value.value, cst.Name) or value.value.value != self_name):
        return None
    return value
