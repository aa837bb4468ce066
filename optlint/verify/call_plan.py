"""Harness plans for findings about one call: the call as written ("call"), or a construction of
the model class the finding is in ("instance").

"call": the innermost call around the flagged node (or the innermost one whose last name is among
the check's `anchors`), sliced from the file and run as written and as fixed. "instance": a call
in the file that constructs the class around the flagged node (a field's declaration, an
assignment in `__init__`); when the flagged node is in no class, the call around it (`Pair(layer,
layer)`). Either way the role `call` is a function of no argument that makes the call, and the
probe gets the finding's message (`values["probe"]["message"]`) to read what it names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import libcst as cst

from optlint.diagnostics import Diagnostic
from optlint.rules.base import RuntimeCheck
from optlint.verify.slicing import calls_in, key_of, slice_for
from optlint.verify.transform_plan import scope_layers

if TYPE_CHECKING:
    from optlint.verify.plan import Source


def call_variants(original: Source, fixed: Source | None, diagnostic: Diagnostic,
                  check: RuntimeCheck) -> dict[str, dict[str, Any]]:
    node = original.node_at(diagnostic)
    call = _the_call(original, node, check) if node is not None else None
    if call is None:
        what = "a construction of the class" if check.builds == "instance" else "the call"
        return {"original": {"unbuildable": f"{what} could not be found in this file"}}
    statement = original.statement_of(call)
    ordinal = calls_in(statement).index(call)
    variants = {"original": _variant(original, call, diagnostic)}
    if fixed is not None and diagnostic.fix is not None:
        number = original.number[id(statement)]
        again = None
        if number < len(fixed.statements):
            calls = calls_in(fixed.statements[number])
            again = calls[ordinal] if ordinal < len(calls) else None
        variants["fixed"] = (_variant(fixed, again, diagnostic) if again is not None
                             else {"unbuildable": "the fixed source has no matching call"})
    return variants


def _the_call(source: Source, node: cst.CSTNode, check: RuntimeCheck) -> cst.Call | None:
    chain = [node, *source.ancestors(node)]
    if check.builds == "instance":
        owner = next((a for a in chain if isinstance(a, cst.ClassDef)), None)
        if owner is not None:
            return _construction(source, owner)
    calls = [c for c in chain if isinstance(c, cst.Call)]
    if check.anchors:
        return next((c for c in calls if _last_name(c) in check.anchors), None)
    return calls[0] if calls else None


def _construction(source: Source, owner: cst.ClassDef) -> cst.Call | None:
    """The first call of the class by its name outside its own body, module level first."""
    found = [call for statement in source.statements for call in calls_in(statement)
             if key_of(call.func) == owner.name.value and not any(
                 a is owner for a in source.ancestors(call))]
    found.sort(key=lambda call: (sum(isinstance(a, cst.FunctionDef)
                                     for a in source.ancestors(call)),
                                 source.positions[call].start.line))
    return found[0] if found else None


def _last_name(call: cst.Call) -> str:
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return func.value if isinstance(func, cst.Name) else ""


def _variant(source: Source, call: cst.Call, diagnostic: Diagnostic) -> dict[str, Any]:
    code = source.code(call)
    expression = cst.parse_expression(f"lambda: {code}")
    sliced = slice_for([expression], scope_layers(source, call))
    if sliced.missing:
        return {"unbuildable": "missing " + ", ".join(sliced.missing)}
    notes = ["stand-in model"] if "model" in sliced.bindings.values() else []
    return {"statements": [{"code": s.code, "writes": sorted(s.writes),
                            "head": s.code.strip().splitlines()[0] if s.code.strip() else "",
                            "finding": False} for s in sliced.statements],
            "bindings": sliced.bindings, "roles": {"call": f"lambda: {code}"},
            "model_names": [], "probe": {"message": diagnostic.message}, "notes": notes}
