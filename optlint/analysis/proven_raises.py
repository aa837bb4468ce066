"""Statements that must raise, proven from the project's own files: the code after them never
runs, so no key consumed there (or later) is consumed at all.

Two kinds, both read from the checked project's files, never guessed for other packages:
- `from pkg import name` at a module's top level where `pkg` is a project module that binds no
  `name` and has no submodule of that name: `ImportError` when the file runs (a script written
  against another version of its own package), so nothing in the file ever runs;
- a call of a project function (resolved by the key analysis) given a keyword its plain,
  undecorated `def` does not accept and no `**kwargs` takes: `TypeError` before its body runs.
A module that may bind names in ways its syntax does not show (`__getattr__`, `globals()`,
`setattr`, a star import) proves nothing.
"""

from __future__ import annotations

import re
import sys
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import cast

import libcst as cst
from libcst.helpers import get_full_name_for_node

from optlint.analysis.evaluator import Evaluator, Project
from optlint.analysis.index import Scope
from optlint.analysis.key_syntax import target_names
from optlint.analysis.walk import child_nodes
from optlint.source import SourceError, decode, read_bytes

# Names through which a module may bind names its syntax does not show.
_DYNAMIC_BINDERS = frozenset({"globals", "setattr", "exec", "vars", "__getattr__", "__dict__",
                              "modules", "__import__", "import_module"})
# What a run has learnt of its project's files, kept with the project (its index) and for as
# long: every file importing `from pkg.utils import a` asks the same of `pkg/utils.py`.
# (module, imported names, importing folder) -> whether the import fails
_FAILS: weakref.WeakKeyDictionary[object, dict[tuple[str, tuple[str, ...], str], bool]] = (
    weakref.WeakKeyDictionary())
# A project file's path -> its text (None: unreadable), and (path, name) -> whether the text
# spells the name as a word
_TEXTS: weakref.WeakKeyDictionary[object, dict[Path, str | None]] = weakref.WeakKeyDictionary()
_SPELT: weakref.WeakKeyDictionary[object, dict[tuple[Path, str], bool]] = (
    weakref.WeakKeyDictionary())
# The name a module's bindings are kept by in its evaluator's `derived`.
_BINDINGS = "module_bindings"


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
        if all(_spells(project, path, name) for name in names):
            # Every name is written in the module: it may well bind them. Proving it would
            # parse the module and walk its every node; only a name the text never spells
            # (a script against another version of its package) is worth the proof.
            return False
        owner = project.evaluator_for(str(path))
        if owner is None:
            return False
        bound = _bindings_of(owner)
        if bound is None:
            return False
        separator = "" if module.endswith(".") else "."
        if all(name in bound or project.project_files(f"{module}{separator}{name}", filename)
               for name in names):
            return False
    return True


def _spells(project: Project, path: Path, name: str) -> bool:
    """The text of project file `path` spells `name` as a word (False: unreadable); its text
    read once per run."""
    spelt = _SPELT.setdefault(project, {})
    key = (path, name)
    if key not in spelt:
        texts = _TEXTS.setdefault(project, {})
        if path not in texts:
            try:
                texts[path] = decode(read_bytes(path), str(path)).text
            except (OSError, SourceError):
                texts[path] = None
        text = texts[path]
        # `in` first: far cheaper than the regular expression where the name is not there.
        spelt[key] = text is not None and name in text and bool(
            re.search(rf"\b{re.escape(name)}\b", text))
    return spelt[key]


def _bindings_of(owner: Evaluator) -> frozenset[str] | None:
    """`module_bindings` of a project file, worked out once and kept with its evaluator."""
    derived = getattr(owner, "derived", None)
    if derived is None:
        return module_bindings(owner.index.module_scope.node)
    if _BINDINGS not in derived:
        derived[_BINDINGS] = module_bindings(owner.index.module_scope.node)
    found = derived[_BINDINGS]
    assert found is None or isinstance(found, frozenset)
    return found


def module_bindings(module: cst.CSTNode) -> frozenset[str] | None:
    """Every name the module binds anywhere (its top level's in any branch, loop or `try`, its
    functions' `global` ones, and, more than needed, their locals); None when it may bind
    others unseen."""
    bound: set[str] = set()
    for node in _every_node(module):
        if isinstance(node, cst.ImportFrom) and isinstance(node.names, cst.ImportStar):
            return None
        if isinstance(node, cst.Name) and node.value in _DYNAMIC_BINDERS:
            return None
        if isinstance(node, cst.Attribute) and node.attr.value in _DYNAMIC_BINDERS:
            return None
        bound.update(_bound_by(node))
    return frozenset(bound)


def _every_node(node: cst.CSTNode) -> Iterator[cst.CSTNode]:
    pending = [node]
    while pending:
        current = pending.pop()
        yield current
        pending.extend(child_nodes(current))


def _bound_by(node: cst.CSTNode) -> Iterator[str]:
    if isinstance(node, cst.Assign):
        for target in node.targets:
            yield from target_names(target.target)
    elif isinstance(node, (cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor, cst.NamedExpr)):
        yield from target_names(node.target)
    elif isinstance(node, cst.AsName):
        yield from target_names(node.name)
    elif isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.TypeAlias)):
        yield node.name.value
    elif isinstance(node, cst.Global):
        yield from (item.name.value for item in node.names)
    elif isinstance(node, cst.ImportAlias) and node.asname is None:
        yield node.evaluated_name.split(".", 1)[0]
    elif isinstance(node, (cst.MatchAs, cst.MatchStar)) and node.name is not None:
        yield node.name.value


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

    def __call__(self, node: cst.BaseSmallStatement, scope: Scope | None = None) -> bool:
        """`scope`: the scope `node` runs in, where the caller knows it."""
        # Asked of every small statement every walk meets: the kinds that may raise are told
        # by their exact types (libcst's are final; `isinstance` on its abstract classes costs).
        kind = type(node)
        if kind is cst.ImportFrom:
            return self._import_fails(cast(cst.ImportFrom, node))
        if self._missing is not None and self._missing(node, scope):
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
