"""From a finding to what the harness must build: per variant (original, fixed), the sliced
statements, the stand-ins, and the role expressions (optimizer, params, state, mask, ...).

In the original source the nodes are the finding's own (its node and roles, in the tree the lint
ran on). In the fixed source the anchor is found again: the flagged statement is the same
statement in both (statements are numbered in order, imports left out, since a fix adds at most an
import), and inside it the anchor call is the one with the same name and ordinal.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider

from optlint.analysis.binding import argument as bound_argument
from optlint.analysis.imports import ImportTable
from optlint.analysis.optax_table import behaviour
from optlint.analysis.project import ProjectIndex
from optlint.config import find_config
from optlint.diagnostics import Diagnostic
from optlint.linted import Linted
from optlint.rules import runtime_check
from optlint.rules.base import Finding, RuntimeCheck
from optlint.verify.parameters import ParameterValue, candidates, settle
from optlint.verify.slicing import (
    Slice,
    Statement,
    calls_in,
    flatten,
    key_of,
    reads_of,
    slice_for,
)
from optlint.verify.call_plan import call_variants
from optlint.verify.key_plan import key_variants
from optlint.verify.transform_plan import transform_variants


def last_name(call: cst.Call) -> str:
    func = call.func
    if isinstance(func, cst.Name):
        return func.value
    if isinstance(func, cst.Attribute):
        return func.attr.value
    if isinstance(func, cst.Call):
        return last_name(func) + "()"
    return ""


class Source:
    """A parsed file with positions, parents, numbered statements and its optax aliases. Built
    on the tree given as is (not a copy), so that the lint's nodes are this source's nodes."""

    def __init__(self, module: cst.Module) -> None:
        self.wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
        self.module = self.wrapper.module
        self.positions = self.wrapper.resolve(PositionProvider)
        self.parents = self.wrapper.resolve(ParentNodeProvider)
        self.statements: list[cst.CSTNode] = []
        self.imports = ImportTable()
        for node in self.positions:
            if isinstance(node, cst.Import):
                self.imports.add_import(node)
            elif isinstance(node, cst.ImportFrom):
                self.imports.add_import_from(node)
            elif isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)) and not (
                    isinstance(node, cst.SimpleStatementLine)
                    and isinstance(node.body[0], (cst.Import, cst.ImportFrom))):
                self.statements.append(node)
        self.statements.sort(key=lambda n: (self.positions[n].start.line,
                                            self.positions[n].start.column))
        self.number = {id(node): index for index, node in enumerate(self.statements)}

    def code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def ancestors(self, node: cst.CSTNode) -> list[cst.CSTNode]:
        chain = []
        parent = self.parents.get(node)
        while parent is not None:
            chain.append(parent)
            parent = self.parents.get(parent)
        return chain

    def statement_of(self, node: cst.CSTNode) -> cst.CSTNode:
        for candidate in [node, *self.ancestors(node)]:
            if id(candidate) in self.number:
                return candidate
        raise LookupError("no statement")

    def is_optax_call(self, call: cst.Call) -> bool:
        func = call.func
        while isinstance(func, cst.Call):  # `inject_hyperparams(adamw)(...)`
            func = func.func
        return (self.imports.qualify(func) or "").split(".")[0] == "optax"


@dataclass
class Anchor:
    """The call a finding is about, findable again in the fixed source by name and ordinal."""

    name: str
    ordinal: int


@dataclass
class FindingPlan:
    number: int
    diagnostic: Diagnostic
    kind: str
    variants: dict[str, dict[str, Any]] = field(default_factory=dict)
    probe: str | None = None

    def spec(self) -> dict[str, Any]:
        return {"id": self.number, "code": self.diagnostic.code, "kind": self.kind,
                "probe": self.probe, "variants": self.variants}


def anchor_key(source: Source, statement: cst.CSTNode, call: cst.Call) -> Anchor:
    same = [c for c in calls_in(statement) if last_name(c) == last_name(call)]
    return Anchor(last_name(call), next(i for i, c in enumerate(same) if c is call))


def anchor_again(source: Source, statement: cst.CSTNode, anchor: Anchor) -> cst.Call | None:
    same = [c for c in calls_in(statement) if last_name(c) == anchor.name]
    return same[anchor.ordinal] if anchor.ordinal < len(same) else None


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


def argument(call: cst.Call, position: int, keyword: str) -> cst.BaseExpression | None:
    """The expression passed at `position` or as `keyword` (the analysis's binder)."""
    found = bound_argument(call, position, keyword)
    return found.value if found is not None else None


class Planner:
    """Builds the harness plan of every finding of one file."""

    def __init__(self, linted: Linted, fixed: str | None, filename: str | None = None,
                 project_root: Path | None = None) -> None:
        """`linted`: the original text as the lint saw it (`Linter.analyse_text`); `filename`:
        where call sites of the file's functions are looked for in the project's other files
        (None: nowhere but the file itself)."""
        self.linted = linted
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
        for diagnostic in linted.diagnostics:
            finding = linted.finding(diagnostic)
            if finding is not None:
                self.flagged_numbers.add(self.original.number[id(
                    self.original.statement_of(finding.node))])

    def plan(self, number: int, diagnostic: Diagnostic) -> FindingPlan | None:
        check = runtime_check(diagnostic.code)
        finding = self.linted.finding(diagnostic)
        if check is None or finding is None:
            return None
        plan = FindingPlan(number, diagnostic, check.builds, probe=check.probe)
        if check.builds == "function":  # a transformation applied to a function
            plan.variants.update(transform_variants(self.original, self.fixed, diagnostic,
                                                    finding))
            return plan
        if check.builds == "keys":  # a PRNG key and the consumers it reaches
            plan.variants.update(key_variants(self, self.original, self.fixed, diagnostic,
                                              finding))
            return plan
        if check.builds in ("call", "instance"):
            plan.variants.update(call_variants(self.original, self.fixed, diagnostic, finding,
                                               check))
            return plan
        node = finding.node
        if check.builds == "expression":
            if not isinstance(node, cst.BaseExpression):
                plan.variants["original"] = {"unbuildable": "the flagged node is no expression"}
                return plan
            plan.variants.update(self.expression_variants(node, diagnostic, check))
            return plan
        anchor = finding.roles.get("call")
        if not isinstance(anchor, cst.Call):
            plan.variants["original"] = {"unbuildable": "the flagged call could not be found"}
            return plan
        statement = self.original.statement_of(anchor)
        key = anchor_key(self.original, statement, anchor)
        mask_text = _standin_mask(self.original, finding, check)
        extra: dict[str, str] = {}
        if self.fixed is not None and diagnostic.fix is not None:
            number_of = self.original.number[id(statement)]
            again = None
            if number_of < len(self.fixed.statements):
                again = anchor_again(self.fixed, self.fixed.statements[number_of], key)
            if (again is not None and check.builds == "params" and last_name(anchor) == "update"
                    and _no_params(anchor)):
                # A fix that adds the params `update` lacked (OPT007): the original is built
                # with the same params (role `fixed_params`, for the state and the gradients)
                # and still called without them, so both variants need the same values.
                added = self.roles(self.fixed, again, check, mask_text)[0].get("params")
                extra = {"fixed_params": added} if added is not None else {}
            plan.variants["original"] = self.variant(self.original, anchor, check, mask_text,
                                                     extra=extra)
            plan.variants["fixed"] = (
                self.variant(self.fixed, again, check, mask_text) if again is not None
                else {"unbuildable": "the fixed source has no matching call"})
        else:
            plan.variants["original"] = self.variant(self.original, anchor, check, mask_text)
        return plan

    def expression_variants(self, node: cst.BaseExpression, diagnostic: Diagnostic,
                            check: RuntimeCheck) -> dict[str, dict[str, Any]]:
        """The flagged expression as written, and as the fix rewrites it (the fix's edit of
        exactly the flagged range), each evaluated where the flagged statement stands."""
        statement = self.original.statement_of(node)
        variants = {"original": self.variant(
            self.original, node, check, None,
            {"flagged": f"lambda: ({self.original.code(node)})"})}
        if self.fixed is not None and diagnostic.fix is not None:
            edits = [edit for edit in diagnostic.fix.edits
                     if (edit.start, edit.end) == (diagnostic.start, diagnostic.end)]
            number = self.original.number[id(statement)]
            # A fix that rewrites more than the expression (a read becoming a function call)
            # has nothing to probe: the original alone is run.
            if len(edits) == 1 and number < len(self.fixed.statements):
                variants["fixed"] = self.variant(
                    self.fixed, self.fixed.statements[number], check, None,
                    {"flagged": f"lambda: ({edits[0].content})"})
        return variants

    def variant(self, source: Source, anchor: cst.CSTNode, check: RuntimeCheck,
                mask_text: str | None, given: dict[str, str] | None = None,
                extra: dict[str, str] | None = None) -> dict[str, Any]:
        """`given`: the roles, instead of the anchor's; `extra`: roles added to the anchor's."""
        roles, extra_end = (dict(given), None) if given is not None else self.roles(
            source, anchor, check, mask_text)  # type: ignore[arg-type]
        roles.update(extra or {})
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
        if sliced.missing and "params" in roles and check.builds == "transform":
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

    def roles(self, source: Source, anchor: cst.Call, check: RuntimeCheck,
              mask_text: str | None) -> tuple[dict[str, str], cst.CSTNode | None]:
        """The role expressions, and a later statement the slice must reach (the `init`)."""
        if check.builds == "value":
            return {"value": source.code(statement_expression(source, anchor))}, None
        if check.builds == "params":
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
        optimizer = outermost_transform(source, anchor)
        roles = {"optimizer": source.code(optimizer)}
        # A mask that shapes the stand-in params is already in them.
        mask = _mask_argument(source, anchor) if check.standin_params == "model" else None
        if mask is not None:
            roles["mask"] = source.code(mask)
        init = self.init_call(source, optimizer)
        if init is not None:
            roles["params"] = source.code(init.args[0].value)
            return roles, source.statement_of(init)
        roles["params"] = (f"__optlint_like__({mask_text})" if mask_text
                           else "__optlint_standin_params__()")
        return roles, None

    def init_call(self, source: Source, optimizer: cst.BaseExpression) -> cst.Call | None:
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

    def layers(self, source: Source, statement: cst.CSTNode, extra_end: cst.CSTNode | None
               ) -> tuple[list[tuple[list[Statement], list[cst.Param]]],
                          dict[str, list[ParameterValue]]]:
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
        if isinstance(owner, cst.ClassDef) and function.name.value != "__init__":
            init = next((s for s in owner.body.body if isinstance(s, cst.FunctionDef)
                         and s.name.value == "__init__"), None)
            if init is not None and isinstance(init.body, cst.IndentedBlock):
                layers.append((flatten(init.body.body), _params(init)))
        layers.append((module_body, []))
        return layers, values

    def _before(self, source: Source, statements: list[Statement], end: cst.CSTNode,
                flagged: cst.CSTNode) -> list[Statement]:
        limit = source.number[id(end)]
        return [s for s in statements if s.node is not flagged and source.number.get(
            id(s.node), -1) < limit]


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


def _params(function: cst.FunctionDef) -> list[cst.Param]:
    params = function.params
    return [*params.posonly_params, *params.params, *params.kwonly_params]


__all__ = ["FindingPlan", "Planner", "Slice"]
