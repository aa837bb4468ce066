"""Statements that must raise, proven from the project's own files: the code after them never
runs, so no key consumed there (or later) is consumed at all.

Two kinds, both read from the checked project's files, never guessed for other packages:
- `from pkg import name` at a module's top level where `pkg` is a project module that binds no
  `name` and has no submodule of that name: `ImportError` when the file runs (a script written
  against another version of its own package), so nothing in the file ever runs;
- a call of a project function (resolved by the key analysis) given a keyword its plain,
  undecorated `def` does not accept and no `**kwargs` takes: `TypeError` before its body runs;
- (besides the attribute reads of `proven_attributes.py`) an attribute of an imported project
  module that none of its files binds (`proven_module_attributes.py`): `AttributeError`.
A module that may bind names in ways its syntax does not show (`__getattr__`, `globals()`,
`setattr`, a star import) proves nothing.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import cast

import libcst as cst
from libcst.helpers import get_full_name_for_node

from optlint.analysis.evaluator import Evaluator, Project
from optlint.analysis.index import Scope
from optlint.analysis.proven_module_attributes import MissingModuleAttributes
from optlint.analysis.module_names import kept_bindings, spells

# What a run has learnt of its project's files, kept with the project (its index) and for as
# long: every file importing `from pkg.utils import a` asks the same of `pkg/utils.py`.
# (module, imported names, importing folder) -> whether the import fails
_FAILS: weakref.WeakKeyDictionary[object, dict[tuple[str, tuple[str, ...], str], bool]] = (
    weakref.WeakKeyDictionary())


def failing_import(node: cst.ImportFrom, inference: Evaluator, filename: str) -> bool:
    """`from module import a, b` names something every project file `module` may be lacks."""
    project = inference.project
    if project is None or isinstance(node.names, cst.ImportStar):
        return False
    module = "." * len(node.relative) + (
        (get_full_name_for_node(node.module) or "") if node.module is not None else "")
    if not node.relative and module.split(".", 1)[0] in sys.stdlib_module_names:
        # `from types import FrameType` in a package holding a `types.py`: an absolute import
        # finds the standard library's module first, whatever file the project has of that name.
        return False
    names = tuple(alias.evaluated_name for alias in node.names)
    # Where `module` leads depends on the importing file's folder alone (`candidate_files`).
    key = (module, names, str(Path(filename).parent))
    known = _FAILS.setdefault(project, {})
    if key not in known:
        known[key] = _fails(module, names, project, filename)
    return known[key]


def _fails(module: str, names: tuple[str, ...], project: Project, filename: str) -> bool:
    files = project.project_files(module, filename)
    if not files:
        return False
    for path in files:
        if all(spells(project, path, name) for name in names):
            # Every name is written in the module: it may well bind them. Proving it would
            # parse the module and walk its every node; only a name the text never spells
            # (a script against another version of its package) is worth the proof.
            return False
        owner = project.evaluator_for(str(path))
        if owner is None:
            return False
        bound, stars = kept_bindings(owner)
        if bound is None or stars:  # a star import may bind any name
            return False
        separator = "" if module.endswith(".") else "."
        if all(name in bound or project.project_files(f"{module}{separator}{name}", filename)
               for name in names):
            return False
    return True


def rejects_keywords(call: cst.Call, function: cst.FunctionDef) -> bool:
    """`call` gives `function` a keyword it does not accept: `TypeError` before it runs. Only
    for a plain `def` (a decorator may change what it accepts) without `**kwargs`."""
    params = function.params
    if function.decorators or isinstance(params.star_kwarg, cst.Param):
        return False
    accepted = {param.name.value for param in (*params.params, *params.kwonly_params)}
    return any(arg.keyword is not None and arg.keyword.value not in accepted
               for arg in call.args if not arg.star)


class ProvenRaises:
    """Which small statements of one file must raise (a failing import, a rejected keyword),
    and whether the file itself fails at a top-level import. `resolve`: the project function
    a call runs, where the key analysis knows it (`(def, bound, stepping)`, or anything else)."""

    def __init__(self, inference: Evaluator, filename: str,
                 resolve: Callable[[cst.Call], object],
                 missing: Callable[[cst.BaseSmallStatement, Scope | None], bool] | None = None
                 ) -> None:
        self._inference = inference
        self._filename = filename
        self._resolve = resolve
        self._imports: dict[int, bool] = {}
        # A third kind: an attribute read its object cannot have (`proven_attributes.py`).
        self._missing = missing
        # A fourth: an attribute its imported project module lacks.
        self._module_attributes = MissingModuleAttributes(inference, filename)

    def __call__(self, node: cst.BaseSmallStatement, scope: Scope | None = None) -> bool:
        """`scope`: the scope `node` runs in, where the caller knows it."""
        # Asked of every small statement every walk meets: the kinds that may raise are told
        # by their exact types (libcst's are final; `isinstance` on its abstract classes costs).
        kind = type(node)
        if kind is cst.ImportFrom:
            return self._import_fails(cast(cst.ImportFrom, node))
        if self._missing is not None and self._missing(node, scope):
            return True
        return self.scopeless(node)

    def scopeless(self, node: cst.BaseSmallStatement) -> bool:
        """The kinds told without the scope `node` runs in (no attribute read of an object:
        finding its scope would map every node of the file to its parent)."""
        if type(node) is cst.ImportFrom:
            return self._import_fails(cast(cst.ImportFrom, node))
        if self._module_attributes(node):
            return True
        return self.raising_call(node) is not None

    def raising_call(self, node: cst.BaseSmallStatement) -> cst.Call | None:
        """The call of `node` given a keyword its project function does not accept: the
        statement's call, or a call given to it (`results.append(fit(x, logger=print))`)."""
        kind = type(node)
        if kind is not cst.Assign and kind is not cst.Expr:
            return None
        value = cast("cst.Assign | cst.Expr", node).value
        if type(value) is not cst.Call:
            return None
        call = cast(cst.Call, value)
        for candidate in (call, *(arg.value for arg in call.args if type(arg.value) is cst.Call)):
            given = cast(cst.Call, candidate)
            if not any(arg.keyword for arg in given.args):
                continue
            resolved = self._resolve(given)
            if isinstance(resolved, tuple) and rejects_keywords(given, resolved[0]):
                return given
        return None

    def module_fails(self, module: cst.Module) -> bool:
        """A top-level `from ... import` of the file fails: none of its code ever runs."""
        return any(isinstance(small, cst.ImportFrom) and self._import_fails(small)
                   for statement in module.body if isinstance(statement, cst.SimpleStatementLine)
                   for small in statement.body)

    def _import_fails(self, node: cst.ImportFrom) -> bool:
        known = self._imports.get(id(node))
        if known is None:
            known = self._imports[id(node)] = failing_import(node, self._inference,
                                                             self._filename)
        return known
