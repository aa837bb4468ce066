"""The names a module's syntax shows it binds (`module_bindings`, kept with a project file's
evaluator by `kept_bindings`), and whether a project file's text spells a name at all (`spells`):
what `proven_raises.py` and `proven_module_attributes.py` read of a project module to prove it
lacks a name."""

from __future__ import annotations

import re
import weakref
from collections.abc import Iterator
from pathlib import Path

import libcst as cst

from optlint.analysis.evaluator import Evaluator, Project
from optlint.analysis.key_syntax import target_names
from optlint.analysis.walk import child_nodes
from optlint.source import SourceError, decode, read_bytes

# Names through which a module may bind names its syntax does not show.
_DYNAMIC_BINDERS = frozenset({"globals", "setattr", "exec", "__getattr__", "__dict__",
                              "modules", "__import__", "import_module"})
# Builtins that do so only when called: `vars()` is the module's namespace at its top level,
# while a local named `vars` (`out, vars = model.apply(...)`) binds nothing unseen.
_DYNAMIC_CALLS = frozenset({"vars"})
# A project file's path -> its text (None: unreadable), and (path, name) -> whether the text
# spells the name as a word
_TEXTS: weakref.WeakKeyDictionary[object, dict[Path, str | None]] = weakref.WeakKeyDictionary()
_SPELT: weakref.WeakKeyDictionary[object, dict[tuple[Path, str], bool]] = (
    weakref.WeakKeyDictionary())
# The name a module's bindings are kept by in its evaluator's `derived`.
_BINDINGS = "module_bindings"
# What `module_bindings` gives with its star imports: the names (None: it may bind others
# unseen), and those `from ... import *`.
Bindings = tuple["frozenset[str] | None", "tuple[cst.ImportFrom, ...]"]


def spells(project: Project, path: Path, name: str) -> bool:
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


def module_bindings(module: cst.CSTNode, stars: list[cst.ImportFrom] | None = None
                    ) -> frozenset[str] | None:
    """Every name the module binds anywhere (its top level's in any branch, loop or `try`, its
    functions' `global` ones, and, more than needed, their locals); None when it may bind
    others unseen. Its star imports go to `stars` where given (else: None)."""
    bound: set[str] = set()
    for node in _every_node(module):
        if isinstance(node, cst.ImportFrom) and isinstance(node.names, cst.ImportStar):
            if stars is None:
                return None
            stars.append(node)
            continue
        if isinstance(node, cst.Name) and node.value in _DYNAMIC_BINDERS:
            return None
        if (isinstance(node, cst.Call) and isinstance(node.func, cst.Name)
                and node.func.value in _DYNAMIC_CALLS):
            return None
        if isinstance(node, cst.Attribute) and node.attr.value in _DYNAMIC_BINDERS:
            return None
        bound.update(_bound_by(node))
    return frozenset(bound)


def kept_bindings(owner: Evaluator) -> Bindings:
    """`module_bindings` of a project file, with its star imports, worked out once per run and
    kept with its evaluator: every file importing the module asks it again (a walk of every
    node of the module)."""
    derived = getattr(owner, "derived", None)
    found = derived.get(_BINDINGS) if derived is not None else None
    if found is None:
        stars: list[cst.ImportFrom] = []
        found = (module_bindings(owner.index.module_scope.node, stars), tuple(stars))
        if derived is not None:
            derived[_BINDINGS] = found
    return found  # type: ignore[return-value]


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
