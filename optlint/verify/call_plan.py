"""Harness plans for findings about one call: the call as written ("call"), or a construction of
the model class the finding is in ("instance").

"call": the finding's "call" role (else the innermost call around the flagged node), sliced from
the file and run as written and as fixed. "instance": a call in the file that constructs the
class around the flagged node (a field's declaration, an assignment in `__init__`); when the
flagged node is in no class, the call around it (`Pair(layer, layer)`). Either way the role
`call` is a function of no argument that makes the call, and the probe gets the names of the
fields the finding is about (its "field" and "other_field" values) as `values["probe"]["fields"]`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import libcst as cst

from optlint.diagnostics import Diagnostic
from optlint.rules.base import Finding, RuntimeCheck
from optlint.verify.slicing import calls_in, key_of, slice_for
from optlint.verify.transform_plan import scope_layers

if TYPE_CHECKING:
    from optlint.verify.parsed_source import Source


def call_variants(original: Source, fixed: Source | None, diagnostic: Diagnostic,
                  finding: Finding, check: RuntimeCheck,
                  in_fixed: Callable[[cst.CSTNode], cst.CSTNode | None] = lambda node: None,
                  ) -> dict[str, dict[str, Any]]:
    """`in_fixed`: where the fixes' edits moved a node of the original (`Planning.in_fixed`);
    where it cannot tell, the call is the one of the same ordinal in the same statement."""
    call = _the_call(original, finding, check)
    if call is None:
        what = "a construction of the class" if check.builds == "instance" else "the call"
        return {"original": {"unbuildable": f"{what} could not be found in this file"}}
    statement = original.statement_of(call)
    ordinal = calls_in(statement).index(call)
    probe = {"fields": [finding.values[name] for name in ("field", "other_field")
                        if name in finding.values]}
    variants = {"original": _variant(original, call, probe)}
    if fixed is not None and diagnostic.fix is not None:
        number = original.number[id(statement)]
        moved = in_fixed(call)
        again = moved if isinstance(moved, cst.Call) else None
        if again is None and number < len(fixed.statements):
            calls = calls_in(fixed.statements[number])
            again = calls[ordinal] if ordinal < len(calls) else None
        variants["fixed"] = (_variant(fixed, again, probe) if again is not None
                             else {"unbuildable": "the fixed source has no matching call"})
    return variants


def _the_call(source: Source, finding: Finding, check: RuntimeCheck) -> cst.Call | None:
    chain = [finding.node, *source.ancestors(finding.node)]
    if check.builds == "instance":
        owner = next((a for a in chain if isinstance(a, cst.ClassDef)), None)
        if owner is not None:
            return _construction(source, owner)
    named = finding.roles.get("call")
    if isinstance(named, cst.Call):
        return named
    return next((c for c in chain if isinstance(c, cst.Call)), None)


def _construction(source: Source, owner: cst.ClassDef) -> cst.Call | None:
    """The first call of the class by its name outside its own body, module level first."""
    found = [call for statement in source.statements for call in calls_in(statement)
             if key_of(call.func) == owner.name.value and not any(
                 a is owner for a in source.ancestors(call))]
    found.sort(key=lambda call: (sum(isinstance(a, cst.FunctionDef)
                                     for a in source.ancestors(call)),
                                 source.positions[call].start.line))
    return found[0] if found else None


def _variant(source: Source, call: cst.Call, probe: dict[str, Any]) -> dict[str, Any]:
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
            "model_names": [], "probe": probe, "notes": notes}
