"""Values for a function's parameters, found the way one would by hand: the parameter's default,
else the argument a call of the function passes (in the same file, or in another file of the
project that imports the function), when that argument is a literal or a module-level name bound
to one. A literal is all a harness can build without running the caller's own code.

The values become assignments at the top of the function's slice (`config = {...}`); a config
mapping that lacks a key the slice reads is reported as missing, never filled in.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path

import libcst as cst
from libcst.metadata import CodeRange

from optlint.analysis.binding import argument_for
from optlint.analysis.index import build_index
from optlint.analysis.project import ProjectIndex
from optlint.config import Settings
from optlint.discovery import discover
from optlint.parsing import Unanalysable, parse_screened
from optlint.positions import node_positions
from optlint.records import record
from optlint.source import SourceError, decode, read_bytes
from optlint.verify.slicing import (
    Slice,
    Statement,
    calls_in,
    reads_of,
    standin_kind,
    walk_statements,
    writes_of,
)

# Folders of a project that hold no code of the project's own.
_MAX_INLINE_DEPTH = 8


@record
class ParameterValue:
    """One candidate value of a parameter: the code to assign and where it comes from."""

    parameter: str
    code: str
    origin: str  # "default", or "the call at train.py:46"
    # `from trainer.config import TrainConfig`: what `code` needs (a config class of the project)
    imports: tuple[str, ...] = ()

    def misfit(self, keys: list[str], attributes: list[str]) -> str | None:
        """Why this value cannot be what the slice reads from it (a key a dict lacks, an
        attribute a literal lacks: `None.lr`), as a "missing ..." entry; None when it fits.
        A value that is not a literal (a default naming a module constant) is taken as is."""
        try:
            value = ast.literal_eval(self.code)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
        shown = self.code if len(self.code) <= 40 else self.code[:37] + "..."
        for key in keys:
            quoted = json.dumps(key)  # as the source most likely spells it: "key"
            if not isinstance(value, dict):
                return (f"a value for parameter `{self.parameter}` ({self.origin} passes "
                        f"{shown}, which has no key {quoted})")
            if key not in value:
                return (f"a value for `{self.parameter}[{quoted}]` ({self.origin} gives "
                        f"no key {quoted})")
        for attribute in attributes:
            if not hasattr(value, attribute):
                return (f"a value for parameter `{self.parameter}` ({self.origin} passes "
                        f"{shown}, which has no attribute `{attribute}`)")
        return None

    def statement(self) -> Statement:
        assignment = f"{self.parameter} = {self.code}\n"
        code = "".join(line + "\n" for line in self.imports) + assignment
        node = cst.parse_statement(assignment)
        # Names the imports bind are not read from the slice's scopes.
        imported = {line.rsplit(" ", 1)[-1] for line in self.imports}
        reads = reads_of(cst.parse_expression(self.code)) - imported
        return Statement(node, code, reads, {self.parameter})


def candidates(function: cst.FunctionDef, module: cst.Module, filename: str | None,
               project: ProjectIndex | None) -> dict[str, list[ParameterValue]]:
    """Per parameter, its candidate values in order of preference: the default alone when it has
    one, else every buildable argument given at a call site (this file first; the other files
    of `project`, when given)."""
    found: dict[str, list[ParameterValue]] = {}
    parameters = _parameters(function)
    for parameter in parameters:
        # `key=None`, `model=None`: "make one yourself"; the stand-in key or model is that.
        placeholder = (isinstance(parameter.default, cst.Name) and parameter.default.value == "None"
                       and standin_kind(parameter.name.value, parameter) is not None)
        if parameter.default is not None and not placeholder:
            code = cst.Module([]).code_for_node(parameter.default)
            found[parameter.name.value] = [ParameterValue(parameter.name.value, code, "default")]
    if not _at_module_level(function, module) or all(p.name.value in found for p in parameters):
        return found  # a method or nested function: no call site names it plainly
    called = function.name.value
    own = Path(filename).resolve() if filename is not None else None
    sites = [("the call on line {}", module, _same_file_calls(module, called), own)]
    if filename is not None and project is not None:
        sites.extend(_other_file_calls(Path(filename).resolve(), project, called))
    callee = Path(filename).resolve() if filename is not None else None
    for label, caller, calls, caller_path in sites:
        bindings = _module_bindings(caller)
        positions: Mapping[cst.CSTNode, CodeRange] | None = None  # once per file, when needed
        for call in calls:
            for name in [p.name.value for p in parameters]:
                expression = argument_for(call, function, name)
                if expression is None or (name in found and found[name][0].origin == "default"):
                    continue
                built = _buildable(expression, bindings, caller, caller_path, callee, project)
                if built is not None:
                    if positions is None:
                        positions = node_positions(caller)
                    origin = label.format(positions[call].start.line)
                    found.setdefault(name, []).append(
                        ParameterValue(name, built[0], origin, built[1]))
    return found


# Constructors of config objects from libraries, by qualified name -> the import they need.
_LIBRARY_CONFIGS = {"dict": (), "types.SimpleNamespace": ("import types",),
                    "ml_collections.ConfigDict": ("import ml_collections",),
                    "ml_collections.config_dict.ConfigDict": ("import ml_collections",)}


def _buildable(expression: cst.BaseExpression, bindings: dict[str, cst.BaseExpression],
               caller: cst.Module, caller_path: Path | None, callee: Path | None,
               project: ProjectIndex | None) -> tuple[str, tuple[str, ...]] | None:
    """The argument as code the harness can run, and the imports it needs: a literal (names of
    literals inlined), or a config object built from literals: `dict(...)`, `ConfigDict(...)`,
    or a class of the project (a dataclass, a NamedTuple, an `eqx.Module`, a plain class) that
    the callee's file defines or a module of the project other than the caller's script holds."""
    literal = _literal_code(expression, bindings)
    if literal is not None:
        return literal, ()
    inlined = _inlined(expression, bindings)
    if not isinstance(inlined, cst.Call) or not all(
            arg.star == "" and _literal_code(arg.value, bindings) is not None
            for arg in inlined.args):
        return None
    code = cst.Module([]).code_for_node(inlined).strip()
    index = build_index(caller)
    qualified = index.imports.qualify(inlined.func)
    builtin = (isinstance(inlined.func, cst.Name) and inlined.func.value == "dict"
               and "dict" not in index.module_scope.bindings)
    if builtin or qualified in _LIBRARY_CONFIGS:
        return code, _LIBRARY_CONFIGS["dict" if builtin else str(qualified)]
    if qualified is None and isinstance(inlined.func, cst.Name):
        # A class of the caller's own file: buildable only where that file is the callee's,
        # whose slice holds the class (another script would run on import).
        same = caller_path is None or caller_path == callee
        defined = inlined.func.value in index.classes
        return (code, ()) if same and defined else None
    if qualified is None or project is None or caller_path is None:
        return None
    module, _, name = qualified.rpartition(".")
    files = project.candidate_files(module, str(caller_path))
    if not module or not files or any(f.resolve() in (caller_path, callee) for f in files):
        return None
    local = isinstance(inlined.func, cst.Name) and inlined.func.value == name
    call = code if local else f"{name}({code.split('(', 1)[1]}"
    absolute = module if not module.startswith(".") else None
    if absolute is None:
        return None  # a relative import seen from another file: not written from here
    return call, (f"from {absolute} import {name}",)


def _inlined(expression: cst.BaseExpression,
             bindings: dict[str, cst.BaseExpression]) -> cst.BaseExpression:
    """A module-level name bound once replaced by its value (`CFG` -> `TrainConfig(...)`)."""
    if isinstance(expression, cst.Name) and expression.value in bindings:
        return bindings[expression.value]
    return expression


def settle(sliced: Slice, layer: list[Statement], expressions: list[cst.BaseExpression],
           values: dict[str, list[ParameterValue]]) -> list[str]:
    """Pick, for each parameter assignment the slice kept, the first candidate value that has
    what the slice reads from it (`parameter["key"]`, `parameter.attribute`); say what is
    lacking when none has. `layer` is the function's layer, which starts with one assignment
    per entry of `values`, in order. Changes `sliced` in place; returns notes saying where
    call-site values came from."""
    assignments = {id(statement): name for statement, name in zip(layer, values, strict=False)}
    in_function = {id(statement) for statement in layer}
    notes: list[str] = []
    for position, statement in enumerate(sliced.statements):
        name = assignments.get(id(statement))
        if name is None:
            continue
        options = values[name]
        others = [s for s in sliced.statements if id(s) in in_function and s is not statement]
        chosen: ParameterValue | None = options[0]
        if not any(name in s.writes for s in others):  # what is read comes from this value
            keys, attributes = uses_of([s.node for s in others] + list(expressions), name)
            chosen = next((o for o in options if o.misfit(keys, attributes) is None), None)
            if chosen is None:
                sliced.missing.append(options[0].misfit(keys, attributes) or "")
                continue
        assert chosen is not None
        sliced.statements[position] = chosen.statement()
        if chosen.origin != "default":
            notes.append(f"`{name}` from {chosen.origin}")
    return notes


def uses_of(nodes: list[cst.CSTNode], parameter: str) -> tuple[list[str], list[str]]:
    """The string keys read as `parameter["key"]` and the attributes read as
    `parameter.attribute` in these nodes, each in order of first appearance."""
    keys: list[str] = []
    attributes: list[str] = []

    class Uses(cst.CSTVisitor):
        def visit_Subscript(self, node: cst.Subscript) -> None:
            if not (isinstance(node.value, cst.Name) and node.value.value == parameter
                    and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index)):
                return
            index = node.slice[0].slice.value
            if isinstance(index, cst.SimpleString):
                key = index.evaluated_value
                if isinstance(key, str) and key not in keys:
                    keys.append(key)

        def visit_Attribute(self, node: cst.Attribute) -> None:
            if (isinstance(node.value, cst.Name) and node.value.value == parameter
                    and node.attr.value not in attributes):
                attributes.append(node.attr.value)

    for node in nodes:
        node.visit(Uses())
    return keys, attributes


def _parameters(function: cst.FunctionDef) -> list[cst.Param]:
    params = function.params
    return [*params.posonly_params, *params.params, *params.kwonly_params]


def _at_module_level(function: cst.FunctionDef, module: cst.Module) -> bool:
    return any(statement is function for statement in module.body)


def _same_file_calls(module: cst.Module, name: str) -> list[cst.Call]:
    return [call for call in calls_in(module)
            if isinstance(call.func, cst.Name) and call.func.value == name]


def _other_file_calls(callee: Path, project: ProjectIndex, name: str
                      ) -> Iterator[tuple[str, cst.Module, list[cst.Call], Path]]:
    """Calls of `name` in the project's other files, through an import that resolves to
    `callee`: `from trainer.optim import make_optimizer`, `import trainer.optim as o`."""
    root = project.root
    for path in _project_files(root):
        if path == callee:
            continue
        try:
            module = _parse(path, name, path.stat().st_mtime_ns)
        except OSError:  # gone since the folder was listed
            continue
        if module is None:
            continue
        # The same walk that linting uses gives the file's imports and calls.
        index = build_index(module)
        calls = []
        for site in index.calls:
            qualified = index.imports.qualify(site.node.func) or ""
            owner, _, called = qualified.rpartition(".")
            # The search for the module's file is the one the cross-file class lookup uses.
            if called == name and owner and callee in project.candidate_files(owner, str(path)):
                calls.append(site.node)
        if calls:
            yield f"the call at {_relative(path, root)}:{{}}", module, calls, path


@lru_cache(maxsize=8)
def _project_files(root: Path) -> tuple[Path, ...]:
    """The project's Python files, sorted, found as `optlint check` finds them (default
    excludes and .gitignore)."""
    files = discover([root], Settings(project_root=root), suffixes=(".py",))
    return tuple(sorted(path.resolve() for path in files))


@lru_cache(maxsize=256)
def _parse(path: Path, name: str, mtime: int) -> cst.Module | None:
    """The file parsed, when its text mentions `name` at all (a cheap gate before parsing);
    `mtime` is in the cache key so that a file rewritten by a fix is read again."""
    try:
        text = decode(read_bytes(path), str(path)).text
    except (OSError, SourceError):
        return None
    if name not in text:
        return None
    try:
        return parse_screened(text, str(path))
    except (cst.ParserSyntaxError, Unanalysable, RecursionError):
        return None


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _module_bindings(module: cst.Module) -> dict[str, cst.BaseExpression]:
    """Module-level names bound exactly once, by a plain `NAME = value`, to that value."""
    writes: dict[str, int] = {}
    values: dict[str, cst.BaseExpression] = {}
    for statement in walk_statements(module.body):
        for key in writes_of(statement):
            writes[key] = writes.get(key, 0) + 1
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                if (isinstance(small, cst.Assign) and len(small.targets) == 1
                        and isinstance(small.targets[0].target, cst.Name)):
                    values[small.targets[0].target.value] = small.value
    return {name: value for name, value in values.items() if writes.get(name) == 1}


def _literal_code(expression: cst.BaseExpression,
                  bindings: dict[str, cst.BaseExpression]) -> str | None:
    """The expression as a self-contained literal, names of literals inlined; None when it is
    anything else (a call, a name bound to a computation)."""

    class Inline(cst.CSTTransformer):
        def __init__(self, depth: int) -> None:
            self.depth = depth

        def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
            value = bindings.get(original.value)
            if value is None or self.depth >= _MAX_INLINE_DEPTH:
                return updated
            inlined = value.visit(Inline(self.depth + 1))
            return inlined if isinstance(inlined, cst.BaseExpression) else updated

    inlined = expression.visit(Inline(0))
    if not isinstance(inlined, cst.BaseExpression):
        return None
    code = cst.Module([]).code_for_node(inlined)
    try:
        ast.literal_eval(code.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return code.strip()
