"""Parameters no call in the project gives, which hold their default `None` in every run the
project makes (ManifoldRG/MultiNet e170d5c: `evaluate_model(self, model, key, loader,
max_samples=None)`, called only as `evaluate_model(model, key, loader)`). A branch on
`max_samples is not None` then never runs, and what it would rebind (`for key in batch:`,
shadowing the key) is never rebound: the key walk takes the branch that runs, so the draw from
`key` in every iteration of the loop is a reuse on every path, not only on some.

What is proven, and only then: the parameter defaults to the literal `None`; the function's
body never rebinds it; the function is called at least once, every call of it is seen
(`Parameters.invocations_of`: in this file, and for a module-level function in the project's
other files; a method's name named in no other project file), and no call gives the parameter
or spreads `*args` / `**kwargs` into it."""

from __future__ import annotations

import re
from pathlib import Path
from collections.abc import Mapping
from typing import TYPE_CHECKING

import libcst as cst

from optlint.analysis.binding import bind_arguments
from optlint.analysis.key_known_names import KnownNames, known_test, names_tested
from optlint.analysis.key_syntax import reads_as_key, target_names
from optlint.analysis.walk import walk

if TYPE_CHECKING:
    from optlint.analysis.index import FunctionInfo
    from optlint.context import RuleContext


def with_unset_params(ctx: RuleContext, constants: KnownNames,
                      info: FunctionInfo | None) -> KnownNames:
    """`constants`, and, for the walk of `info`'s function, its parameters left `None`."""
    if info is None or not isinstance(info.node, cst.FunctionDef):
        return constants
    unset = _unset_none_params(ctx, info)
    if not unset:
        return constants
    known = KnownNames({name: value for name, value in constants.items() if name not in unset})
    known.update({name: False for name in unset})
    known.nones = constants.nones | unset
    known.function = info.node
    return known


def skipped_rebinding(constants: Mapping[str, bool], key: str) -> str:
    """Why a rebinding of `key` on a branch is not taken, for a finding's message: the first
    `if` of the walked function whose test the unset parameters decide and whose branch not
    taken binds `key` (empty when there is none)."""
    if not isinstance(constants, KnownNames) or not constants.nones:
        return ""
    function, nones = constants.function, constants.nones
    if function is None:
        return ""
    for node in _ifs(function):
        taken = known_test(node.test, constants)
        if taken is None:
            continue
        skipped = node.body if not taken else node.orelse
        if skipped is not None and key in _bound_in(skipped):
            given = sorted(nones & _names_in(node.test))
            return (f"the branch on `{given[0]}` that rebinds `{key}` never runs: no call "
                    f"gives `{given[0]}`, which defaults to `None`")
    return ""


def _loops(function: cst.FunctionDef) -> list[cst.For | cst.While]:
    """The outermost loops of `function`'s own body: where a skipped rebinding is a reuse (an
    iteration after another), the only place the callers are worth asking about. Statements
    only, no expression visited: asked of many functions."""
    found: list[cst.For | cst.While] = []
    pending = list(_blocks(function))
    while pending:
        statement = pending.pop()
        if isinstance(statement, (cst.For, cst.While)):
            found.append(statement)
        elif not isinstance(statement, (cst.FunctionDef, cst.ClassDef)):
            pending.extend(_blocks(statement))
    return found


def _blocks(statement: cst.CSTNode) -> list[cst.BaseStatement]:
    """The statements directly in the blocks of a compound statement (or a function)."""
    found: list[cst.BaseStatement] = []
    for part in (getattr(statement, "body", None), getattr(statement, "orelse", None),
                 getattr(statement, "finalbody", None), *getattr(statement, "handlers", ())):
        if isinstance(part, cst.If):
            found.append(part)
            continue
        block = getattr(part, "body", None)
        if isinstance(block, cst.BaseSuite) and isinstance(block, cst.IndentedBlock):
            found.extend(block.body)
        elif isinstance(part, cst.IndentedBlock):
            found.extend(part.body)
    return found


def _ifs(function: cst.FunctionDef) -> list[cst.If]:
    found: list[cst.If] = []

    class _Ifs(cst.CSTVisitor):
        def visit_If(self, node: cst.If) -> None:
            found.append(node)

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False  # a nested function's branches are its own

    function.body.visit(_Ifs())
    return found


def _bound_in(node: cst.CSTNode) -> set[str]:
    """The plain names assignments and `for` targets in `node` bind."""
    targets = _Targets()
    walk(node, targets)  # (libcst's `visit` rebuilds every node it passes)
    return targets.found


class _Targets:
    def __init__(self) -> None:
        self.found: set[str] = set()

    def visit_AssignTarget(self, target: cst.AssignTarget) -> None:
        self.found.update(target_names(target.target))

    def visit_For(self, loop: cst.For) -> None:
        self.found.update(target_names(loop.target))

    def visit_AugAssign(self, assign: cst.AugAssign) -> None:
        self.found.update(target_names(assign.target))


def _names_in(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class _Names(cst.CSTVisitor):
        def visit_Name(self, name: cst.Name) -> None:
            found.add(name.value)

    node.visit(_Names())
    return found


def binding_key(branch: cst.CSTNode) -> bool:
    """`branch` binds a name that reads as a key."""
    return any(reads_as_key(name) for name in _bound_in(branch))


def _unset_none_params(ctx: RuleContext, info: FunctionInfo) -> frozenset[str]:
    function = info.node
    assert isinstance(function, cst.FunctionDef)
    params = function.params
    # Cheap first: a parameter defaulting to `None` that an `if` of the body tests.
    candidates = {param.name.value for param in (*params.params, *params.kwonly_params)
                  if isinstance(param.default, cst.Name) and param.default.value == "None"}
    if not candidates:
        return frozenset()
    # Only a branch that binds a key (`for key in batch:`, `key = fold_in(...)`) changes what
    # the walk proves: asking every caller costs, so the others are not asked about.
    # Which names the loops' `if`s test, first without asking what their branches bind (the
    # dear part): most functions test none of these parameters there.
    loops = _loops(function)
    if candidates.isdisjoint(name for loop in loops for name in names_tested(loop)):
        return frozenset()
    candidates &= {name for loop in loops for name in names_tested(loop, binding_key)}
    candidates = {name for name in candidates if len(info.scope.bindings.get(name, ())) == 1}
    if not candidates:
        return frozenset()
    if info.scope.owner is not None and _named_elsewhere(ctx, function.name.value):
        return frozenset()  # a method other files may call with anything
    invocations = ctx.inference.invocations_of(function)
    if not invocations:
        return frozenset()  # not all calls seen, or none: a caller unseen may give it
    for invocation in invocations:
        call = invocation.site.node
        if any(arg.star for arg in call.args):
            return frozenset()
        given = {param.name.value for param, _ in bind_arguments(function, call, invocation.bound)}
        candidates -= given
        if not candidates:
            break
    return frozenset(candidates)


def _named_elsewhere(ctx: RuleContext, name: str) -> bool:
    """Whether a project file other than this one names `name` (True when that cannot be
    told: the project is too large to read)."""
    project = ctx.inference.project
    if project is None:
        return False
    texts = project.project_texts()
    if texts is None:
        return True
    # The answer rests on every other file's text: for the cache, this file depends on the files
    # naming `name` (one that comes to name it changes the answer).
    project.depends_on(name)
    here = Path(ctx.filename).resolve()
    word = re.compile(rf"\b{re.escape(name)}\b")
    return any(name in text and word.search(text) and path.resolve() != here
               for path, text in texts.items())
