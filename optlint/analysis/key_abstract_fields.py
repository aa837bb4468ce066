"""A key the object holds, drawn through a call of an abstract method (chiron c6f5a63, the
template-method shape): the base's `apply` calls `self._propose_positions(...)`, which only
raises, and the subclass's override draws from `split(self.key)`; `apply` then splits
`self.key` again. What runs is some subclass's override (`key_overrides.py` finds them); the
call draws from `self.<field>` when every concrete override of the project draws from that
field of its object as it is, and the field is set only when the object is built. Where some
overrides do not draw, what runs decides: not reported."""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.key_fields import only_in_constructors, set_when_built
from optlint.analysis.key_overrides import Abstract, Overrides
from optlint.analysis.prng_keys import Consumption

if TYPE_CHECKING:
    from optlint.analysis.key_record import KeyRecorder
    from optlint.context import RuleContext


def abstract_held_uses(ctx: RuleContext, overrides: Overrides, abstract: Abstract,
                       call: cst.Call, how: str) -> list[Consumption]:
    """What `receiver.method(...)` consumes of the keys `receiver` holds, for `method` abstract
    in a class of the file: the fields every override draws from."""
    func = call.func
    if (not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name)
            or func.attr.value != abstract.method.name.value):
        return []
    found = overrides.concrete(abstract)
    if not found:
        return []
    here = ctx.inference.path
    drawn: dict[str, list[Consumption]] | None = None  # field -> each override's draw of it
    for method, info, path in found:
        flow = overrides.summary_of(method, info, path)
        fields = {} if flow is None else _held_draws(flow, method)
        drawn = {field: [use] for field, use in fields.items()} if drawn is None else {
            field: [*uses, fields[field]] for field, uses in drawn.items() if field in fields}
        if not drawn:
            return []
    assert drawn is not None
    names = ", ".join(sorted({info.name for _, info, _ in found}))
    uses = []
    for field, inner in drawn.items():
        # Set when the object is built, and no override's class sets it anew (one that sets
        # it nowhere inherits it).
        if not set_when_built(abstract.owner, field, ctx.index.classes) or not all(
                only_in_constructors(info.attributes.get(field, [])) for _, info, _ in found):
            continue
        first = inner[0]
        same_file = all(path == here for _, _, path in found)
        holder = f"{func.value.value}.{field}"
        uses.append(Consumption(
            call, first.key if same_file else func.value, how, library=False,
            kind=first.kind, held_by=func.value.value, followed="" if same_file else holder,
            proof=f"`{abstract.method.name.value}` is abstract in `{abstract.owner.name}`, and "
                  f"every override of the project ({names}) draws from `self.{field}`, which "
                  f"only `__init__` sets"))
    return uses


def _held_draws(flow: KeyRecorder, method: cst.FunctionDef) -> dict[str, Consumption]:
    """The fields of its own object an override draws from as they are (`self.key`)."""
    params = method.params.params
    if not params:
        return {}
    self_name = params[0].name.value
    found = {}
    for name, use in flow.attribute_uses.items():
        base, _, field = name.partition(".")
        if (base == self_name and field.isidentifier() and not use.unseen
                and not use.repeated and use.kind in ("draw", "split")
                and isinstance(use.key, cst.Attribute)):
            found[field] = use
    return found
