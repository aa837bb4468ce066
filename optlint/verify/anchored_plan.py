"""Builds the checks around the finding's "call" role (its anchor): "params" (an `init` /
`update` / `apply_updates` call: the optimizer, params and state given to it), "transform" (the
optimizer expression around the anchor, with params from its `.init(...)` or stand-ins) and
"value" (the whole expression of the anchor's statement). They differ only in the roles they
read off the anchor: one function each, registered in `builds.BUILDERS`.

In the fixed source the anchor is found where the fixes' own edits moved it (`Planning.in_fixed`):
a fix that adds a statement (a key split) or a call of the same name before it does not lose it.
Only where the edits are not known (a rule page's "Use instead" text) or rewrote the anchor's own
text is it found by counting: the same statement by number (imports left out), and in it the
call with the same name and ordinal.
"""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from optlint.analysis.optax_table import behaviour
from optlint.linted import Reported
from optlint.records import record
from optlint.rules.base import Finding, RuntimeCheck
from optlint.verify.parsed_source import Source, argument, last_name
from optlint.verify.planning import Planning, Variants
from optlint.verify.slicing import calls_in, key_of

# The role expressions read off an anchor, and a later statement the slice must reach.
Roles = tuple[dict[str, str], cst.CSTNode | None]
RolesOf = Callable[[Source, cst.Call, RuntimeCheck, str | None], Roles]


@record(frozen=False)
class Anchor:
    """The call a finding is about, findable again in the fixed source by name and ordinal."""

    name: str
    ordinal: int


def anchor_key(statement: cst.CSTNode, call: cst.Call) -> Anchor:
    same = [c for c in calls_in(statement) if last_name(c) == last_name(call)]
    return Anchor(last_name(call), next(i for i, c in enumerate(same) if c is call))


def anchor_again(statement: cst.CSTNode, anchor: Anchor) -> cst.Call | None:
    same = [c for c in calls_in(statement) if last_name(c) == anchor.name]
    return same[anchor.ordinal] if anchor.ordinal < len(same) else None


def params_variants(planner: Planning, report: Reported, check: RuntimeCheck) -> Variants:
    return _anchored(planner, report, check, _params_roles, fixed_params=True)


def transform_variants(planner: Planning, report: Reported, check: RuntimeCheck) -> Variants:
    return _anchored(planner, report, check, _transform_roles, standins=True)


def value_variants(planner: Planning, report: Reported, check: RuntimeCheck) -> Variants:
    return _anchored(planner, report, check, _value_roles)


def _anchored(planner: Planning, report: Reported, check: RuntimeCheck, roles_of: RolesOf,
              fixed_params: bool = False, standins: bool = False) -> Variants:
    """`fixed_params`: the original gets the params the fix adds; `standins`: params the file
    does not build are made up."""
    finding, diagnostic = report.finding, report.diagnostic
    anchor = finding.roles.get("call")
    if not isinstance(anchor, cst.Call):
        return {"original": {"unbuildable": "the flagged call could not be found"}}
    original, fixed = planner.original, planner.fixed
    mask_text = _standin_mask(original, finding, check)

    def variant(source: Source, call: cst.Call, extra: dict[str, str] | None = None
                ) -> dict[str, object]:
        roles, extra_end = roles_of(source, call, check, mask_text)
        return planner.variant(source, call, check, mask_text, roles | (extra or {}),
                               extra_end, standins)

    if fixed is None or diagnostic.fix is None:
        return {"original": variant(original, anchor)}
    moved = planner.in_fixed(anchor)
    again = moved if isinstance(moved, cst.Call) else _counted_again(original, fixed, anchor)
    extra: dict[str, str] = {}
    if fixed_params and again is not None and last_name(anchor) == "update" and _no_params(
            anchor):
        # A fix that adds the params `update` lacked (OPT007): the original is built with the
        # same params (role `fixed_params`, for the state and the gradients) and still called
        # without them, so both variants need the same values.
        added = roles_of(fixed, again, check, mask_text)[0].get("params")
        extra = {"fixed_params": added} if added is not None else {}
    return {"original": variant(original, anchor, extra),
            "fixed": (variant(fixed, again) if again is not None
                      else {"unbuildable": "the fixed source has no matching call"})}


def _counted_again(original: Source, fixed: Source, anchor: cst.Call) -> cst.Call | None:
    """The anchor in the fixed source by statement number and same-name ordinal."""
    statement = original.statement_of(anchor)
    number = original.number[id(statement)]
    if number >= len(fixed.statements):
        return None
    return anchor_again(fixed.statements[number], anchor_key(statement, anchor))


def _value_roles(source: Source, anchor: cst.Call, check: RuntimeCheck,
                 mask_text: str | None) -> Roles:
    return {"value": source.code(statement_expression(source, anchor))}, None


def _params_roles(source: Source, anchor: cst.Call, check: RuntimeCheck,
                  mask_text: str | None) -> Roles:
    name = last_name(anchor)
    if name == "apply_updates":
        params = argument(anchor, 0, "params")
        return ({"apply": source.code(anchor.func)} | (
            {"params": source.code(params)} if params is not None else {}), None)
    roles = {}
    if isinstance(anchor.func, cst.Attribute):
        roles["optimizer"] = source.code(anchor.func.value)
    params = anchor.args[0].value if name == "init" and anchor.args else argument(
        anchor, 2, "params")
    if params is not None:
        roles["params"] = source.code(params)
    state = argument(anchor, 1, "state") if name == "update" else None
    if state is not None:
        roles["state"] = source.code(state)
    if name == "update":
        # The keywords the call gives (`value=`, ...): a probe calls `update` the same way.
        roles["update_keywords"] = repr(tuple(
            arg.keyword.value for arg in anchor.args if arg.keyword is not None))
    return roles, None


def _transform_roles(source: Source, anchor: cst.Call, check: RuntimeCheck,
                     mask_text: str | None) -> Roles:
    optimizer = outermost_transform(source, anchor)
    roles = {"optimizer": source.code(optimizer)}
    # A mask that shapes the stand-in params is already in them.
    mask = _mask_argument(source, anchor) if check.standin_params == "model" else None
    if mask is not None:
        roles["mask"] = source.code(mask)
    init = init_call(source, optimizer)
    if init is not None:
        roles["params"] = source.code(init.args[0].value)
        return roles, source.statement_of(init)
    roles["params"] = (f"__optlint_like__({mask_text})" if mask_text
                       else "__optlint_standin_params__()")
    return roles, None


def outermost_transform(source: Source, call: cst.Call) -> cst.BaseExpression:
    """Climb from the anchor through the optax wrappers around it (`chain`, `MultiSteps`,
    `.gradient_transformation()`) to the whole optimizer expression."""
    expression: cst.BaseExpression = call
    while True:
        parent = source.parents.get(expression)
        if isinstance(parent, cst.Arg):
            outer = source.parents.get(parent)
            if isinstance(outer, cst.Call) and source.is_optax_call(outer):
                expression = outer
                continue
        if isinstance(parent, cst.Attribute) and parent.value is expression:
            outer = source.parents.get(parent)
            if isinstance(outer, cst.Call) and outer.func is parent:
                expression = outer
                continue
        if isinstance(parent, cst.Call) and parent.func is expression:
            expression = parent  # `inject_hyperparams(adamw)(...)`
            continue
        return expression


def statement_expression(source: Source, call: cst.Call) -> cst.BaseExpression:
    """The outermost expression around `call` in its statement (an assignment's value, a
    `return`'s value): in a fixed source, the fix wrapped around the anchor is part of it."""
    expression: cst.CSTNode = call
    while True:
        parent = source.parents.get(expression)
        if parent is None or isinstance(parent, (cst.BaseSmallStatement, cst.BaseStatement,
                                                 cst.BaseSuite)):
            break
        expression = parent
    return expression if isinstance(expression, cst.BaseExpression) else call


def _no_params(update: cst.Call) -> bool:
    """`update(grads, state)` or `update(grads, state, None)`."""
    params = argument(update, 2, "params")
    return params is None or (isinstance(params, cst.Name) and params.value == "None")


def init_call(source: Source, optimizer: cst.BaseExpression) -> cst.Call | None:
    """The `.init(params)` of this optimizer: by the name it is assigned to, else any."""
    statement = source.statement_of(optimizer)
    assigned = None
    if isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0],
                                                                     cst.Assign):
        targets = statement.body[0].targets
        assigned = key_of(targets[0].target) if len(targets) == 1 else None
    inits = [c for s in source.statements for c in calls_in(s)
             if last_name(c) == "init" and isinstance(c.func, cst.Attribute)
             and len(c.args) == 1 and c.args[0].keyword is None]
    for init in inits:
        assert isinstance(init.func, cst.Attribute)
        if assigned is not None and key_of(init.func.value) == assigned:
            return init
    return None

def _standin_mask(source: Source, finding: Finding, check: RuntimeCheck) -> str | None:
    """The code of the mask that stand-in params are shaped like, for a check that asks so."""
    mask = finding.roles.get("mask", finding.node)
    return source.code(mask) if check.standin_params == "mask" else None


def _mask_argument(source: Source, call: cst.Call) -> cst.BaseExpression | None:
    """The mask the anchor is given, where the table says it goes (`masked(inner, mask)`,
    `freeze(mask)`, `adamw(..., mask=...)`); by keyword for a call the table does not know."""
    table = behaviour(source.imports.qualify(call.func) or "")
    places = table.mask_args if table is not None and table.mask_args else ((99, "mask"),)
    for position, keyword in places:
        found = argument(call, 99 if position is None else position, keyword)
        if found is not None:
            return found
    return None
