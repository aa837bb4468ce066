"""From a finding to what the harness must build: per variant (original, fixed), the sliced
statements, the stand-ins, and the role expressions (optimizer, params, state, mask, ...).

The planner holds the two sources and slices a variant around an anchor; what to build around a
finding is its rule's runtime check's kind, whose builder (`builds.BUILDERS`) picks the anchor and
the roles. In the original source the nodes are the finding's own (its node and roles, in the
tree the lint ran on).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from pathlib import Path
from typing import Any

import libcst as cst

from optlint.analysis.project import ProjectIndex
from optlint.config import find_config
from optlint.diagnostics import Diagnostic
from optlint.fix_moves import EditRound, moved
from optlint.linted import Linted, Reported
from optlint.records import record
from optlint.rules.base import RuntimeCheck
from optlint.verify.builds import BUILDERS
from optlint.verify.parameters import ParameterValue, candidates, settle
from optlint.verify.parsed_source import Source
from optlint.verify.planning import Layers
from optlint.verify.slicing import Slice, Statement, flatten, reads_of, slice_for


@record(frozen=False)
class FindingPlan:
    number: int
    diagnostic: Diagnostic
    kind: str
    variants: dict[str, dict[str, Any]] = field(default_factory=dict)
    probe: str | None = None

    def spec(self) -> dict[str, Any]:
        return {"id": self.number, "code": self.diagnostic.code, "kind": self.kind,
                "probe": self.probe, "variants": self.variants}


class Planner:
    """Builds the harness plan of every finding of one file."""

    def __init__(self, linted: Linted, fixed: str | None, filename: str | None = None,
                 project_root: Path | None = None,
                 fix_rounds: Sequence[EditRound] | None = None) -> None:
        """`linted`: the original text as the lint saw it (`Linter.analyse_text`); `filename`:
        where call sites of the file's functions are looked for in the project's other files
        (None: nowhere but the file itself); `fix_rounds`: the edits that made `fixed` from
        it (`FileResult.fix_rounds`), None when not known (a rule page's "Use instead")."""
        self.linted = linted
        self.fix_rounds = fix_rounds
        self.filename = filename
        root = project_root
        if root is None and filename is not None:
            root = find_config(Path(filename).resolve().parent)[1]
        # One index of the project for every parameter lookup: the lint's own where it is
        # the same project.
        self.project: ProjectIndex | None = None
        if root is not None:
            self.project = (linted.project if linted.project.root == root.resolve()
                            else ProjectIndex(root))
        if linted.module is None:
            raise ValueError(f"{linted.filename}: not analysed")
        self.original = Source(linted.module)
        self.fixed = Source(cst.parse_module(fixed)) if fixed is not None else None
        self.flagged_numbers: set[int] = set()
        for report in linted.reports:
            self.flagged_numbers.add(self.original.number[id(
                self.original.statement_of(report.finding.node))])

    def in_fixed(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """What `node` of the original became in the fixed source: the node of its type where
        the fixes' edits moved it. None when the edits are not known or rewrote it."""
        if self.fixed is None or self.fix_rounds is None:
            return None
        place = moved(self.fix_rounds, *self.original.span(node))
        return self.fixed.node_at(*place, type(node)) if place is not None else None

    def plan(self, number: int, report: Reported) -> FindingPlan | None:
        check = report.rule.runtime_check
        if check is None:
            return None
        plan = FindingPlan(number, report.diagnostic, check.builds, probe=check.probe)
        plan.variants.update(BUILDERS[check.builds](self, report, check))
        return plan

    def variant(self, source: Source, anchor: cst.CSTNode, check: RuntimeCheck,
                mask_text: str | None, roles: dict[str, str],
                extra_end: cst.CSTNode | None = None, standins: bool = False) -> dict[str, Any]:
        """The harness's build of one variant: the statements `roles` need, sliced from the
        scopes around `anchor` (and up to `extra_end`, a later statement such as the `init`).
        `standins`: params the file does not build are made up (shaped like `mask_text`)."""
        roles = dict(roles)
        statement = source.statement_of(anchor)
        layers, values = self.layers(source, statement, extra_end)
        expressions = {role: cst.parse_expression(text) for role, text in roles.items()}

        def sliced_with_values() -> tuple[Slice, list[str]]:
            sliced = slice_for(list(expressions.values()), layers)
            return sliced, settle(sliced, layers[0][0], list(expressions.values()), values)

        sliced, notes = sliced_with_values()
        if sliced.missing and "state" in roles:
            # The state comes from outside (a parameter): init one from the params instead.
            del roles["state"], expressions["state"]
            sliced, notes = sliced_with_values()
        if sliced.missing and "params" in roles and standins:
            # The params could not be built from the file: stand-in params, then slice again.
            roles["params"] = (f"__optlint_like__({mask_text})" if mask_text
                               else "__optlint_standin_params__()")
            expressions["params"] = cst.parse_expression(roles["params"])
            sliced, notes = sliced_with_values()
            notes.append("stand-in params")
        if sliced.missing:
            return {"unbuildable": "missing " + ", ".join(sliced.missing)}
        if roles.get("params", "").startswith("__optlint_") and "stand-in params" not in notes:
            notes.append("stand-in params")
        if "model" in sliced.bindings.values():
            notes.append("stand-in model")
        modules = {k for s in sliced.statements for k in s.writes if s.code.lstrip().startswith(
            ("import", "from"))}
        model_names = sorted(reads_of(expressions["params"]) - modules) if "params" in roles else []
        return {"statements": [self.statement_spec(source, s) for s in sliced.statements],
                "bindings": sliced.bindings, "roles": roles, "model_names": model_names,
                "notes": notes}

    def statement_spec(self, source: Source, statement: Statement) -> dict[str, Any]:
        number = source.number.get(id(statement.node))
        return {"code": statement.code, "writes": sorted(statement.writes),
                "head": statement.code.strip().splitlines()[0] if statement.code.strip() else "",
                "finding": number in self.flagged_numbers}

    def layers(self, source: Source, statement: cst.CSTNode, extra_end: cst.CSTNode | None
               ) -> tuple[Layers, dict[str, list[ParameterValue]]]:
        """Scopes to slice, innermost first, each with its parameters: the function (before the
        flagged statement, or before the `init` that gives the params, along the path of
        branches that leads there), `__init__` for a method, the module. The function's layer
        starts with an assignment for each parameter that has a value (a default, a literal at
        a call site); the candidate values come with it."""
        function = next((a for a in source.ancestors(statement)
                         if isinstance(a, cst.FunctionDef)), None)
        end = statement
        if (extra_end is not None
                and source.number[id(extra_end)] > source.number[id(statement)]
                and function is next((a for a in source.ancestors(extra_end)
                                      if isinstance(a, cst.FunctionDef)), None)):
            end = extra_end
        module_body = flatten(source.module.body, keep=statement)
        if function is None:
            return [(self._before(source, module_body, end, statement), [])], {}
        body = function.body.body if isinstance(function.body, cst.IndentedBlock) else []
        values = candidates(function, source.module, self.filename, self.project)
        assignments = [options[0].statement() for options in values.values()]
        layers = [(assignments + self._before(source, flatten(body, keep=statement), end,
                                              statement), _params(function))]
        block = source.parents.get(function)
        owner = source.parents.get(block) if block is not None else None
        # What sets the object up before the method runs, the last to run first: a test
        # class's `setUp` (unittest) or `setup_method` (pytest), then `__init__`.
        name = function.name.value
        later = SETS_UP[SETS_UP.index(name) + 1:] if name in SETS_UP else SETS_UP
        methods = owner.body.body if isinstance(owner, cst.ClassDef) else ()
        for setup in later:
            init = next((s for s in methods if isinstance(s, cst.FunctionDef)
                         and s.name.value == setup), None)
            if init is not None and isinstance(init.body, cst.IndentedBlock):
                layers.append((flatten(init.body.body), _params(init)))
        layers.append((module_body, []))
        return layers, values

    def _before(self, source: Source, statements: list[Statement], end: cst.CSTNode,
                flagged: cst.CSTNode) -> list[Statement]:
        limit = source.number[id(end)]
        return [s for s in statements if s.node is not flagged and source.number.get(
            id(s.node), -1) < limit]


SETS_UP = ("setUp", "setup_method", "__init__")


def _params(function: cst.FunctionDef) -> list[cst.Param]:
    params = function.params
    return [*params.posonly_params, *params.params, *params.kwonly_params]


__all__ = ["FindingPlan", "Planner", "Slice"]
