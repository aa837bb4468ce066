"""Which names code reads, to tell a draw whose result reaches nothing: `x = normal(key)` with
`x` bound anew before any read, or never read before the function (or `__main__` script) ends.
Such a draw is no draw for a reuse: it leaves nothing identical behind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import libcst as cst

from optlint.analysis.key_syntax import (
    evaluated_within,
    is_main_guard,
    names_rebound,
    plain_target,
    target_names,
)
from optlint.analysis.walk import child_nodes

# Attributes that read an array's shape, not its values (a draw read only for them reaches
# no result).
SHAPE_ATTRIBUTES = frozenset({"shape", "dtype", "ndim"})


def reads_in(node: cst.CSTNode | Sequence[cst.BaseStatement], shared: FileReads,
             shapes: bool = False) -> frozenset[str]:
    """The names `node` reads (without `shapes`, a name only read for `.shape`/`.dtype`/
    `.ndim` is not): both sets made in one pass, cached by node for the file."""
    known = shared.reads.get(id(node))
    if known is None:
        found: set[str] = set()
        shaped: set[str] = set()
        for statement in [node] if isinstance(node, cst.CSTNode) else node:
            _collect_reads(statement, found, shaped)
        known = shared.reads[id(node)] = (frozenset(found), frozenset(found | shaped))
    return known[1] if shapes else known[0]


def _target_reads(target: cst.CSTNode, found: set[str], shaped: set[str] | None) -> None:
    if isinstance(target, cst.Name):
        return
    if isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            _target_reads(element.value, found, shaped)
    elif isinstance(target, cst.StarredElement):
        _target_reads(target.value, found, shaped)
    else:
        _collect_reads(target, found, shaped)


def _collect_reads(node: cst.CSTNode, found: set[str], shaped: set[str] | None = None) -> None:
    """Adds the names `node` reads to `found`, those read only for their shape to `shaped`
    (None: left out; `found` itself: counted as reads)."""
    if isinstance(node, cst.Name):
        found.add(node.value)
    elif isinstance(node, cst.Attribute):
        if isinstance(node.value, cst.Name) and node.attr.value in SHAPE_ATTRIBUTES:
            if shaped is not None:
                shaped.add(node.value.value)
        else:
            _collect_reads(node.value, found, shaped)
    elif isinstance(node, cst.Arg):
        _collect_reads(node.value, found, shaped)
    elif isinstance(node, cst.Assign):
        for target in node.targets:
            _target_reads(target.target, found, shaped)
        _collect_reads(node.value, found, shaped)
    elif isinstance(node, cst.AnnAssign):
        _target_reads(node.target, found, shaped)
        if node.value is not None:
            _collect_reads(node.value, found, shaped)
    elif isinstance(node, (cst.For, cst.CompFor)):
        _target_reads(node.target, found, shaped)
        for child in child_nodes(node):
            if child is not node.target:
                _collect_reads(child, found, shaped)
    elif isinstance(node, cst.NamedExpr):
        _collect_reads(node.value, found, shaped)
    elif isinstance(node, cst.AsName):
        _target_reads(node.name, found, shaped)
    elif isinstance(node, (cst.FunctionDef, cst.Lambda)):
        # A nested function's own locals (`k1` assigned in it) are not the enclosing names.
        inner: set[str] = set()
        inner_shaped = inner if shaped is found else None if shaped is None else set()
        for child in child_nodes(node):
            if not isinstance(node, cst.FunctionDef) or child is not node.name:
                _collect_reads(child, inner, inner_shaped)
        own = _locals(node)
        found.update(inner - own)
        if shaped is not None and inner_shaped is not None and inner_shaped is not inner:
            shaped.update(inner_shaped - own)
    elif isinstance(node, cst.ClassDef):
        for child in child_nodes(node):
            if child is not node.name:
                _collect_reads(child, found, shaped)
    elif isinstance(node, cst.Param):
        for part in (node.default, node.annotation):
            if part is not None:
                _collect_reads(part, found, shaped)
    elif isinstance(node, (cst.Import, cst.ImportFrom, cst.Del)):
        return
    elif isinstance(node, (cst.Global, cst.Nonlocal)):
        found.update(item.name.value for item in node.names)
    else:
        for child in child_nodes(node):
            _collect_reads(child, found, shaped)


def _locals(function: cst.FunctionDef | cst.Lambda) -> set[str]:
    """The names a function binds itself: its parameters and what its body assigns (not
    what it declares `global`/`nonlocal`, nor what its nested functions bind)."""
    bound = {param.name.value for param in (
        *function.params.posonly_params, *function.params.params,
        *function.params.kwonly_params)}
    for star in (function.params.star_arg, function.params.star_kwarg):
        if isinstance(star, cst.Param):
            bound.add(star.name.value)
    declared: set[str] = set()

    def visit(node: cst.CSTNode) -> None:
        if isinstance(node, (cst.Assign,)):
            for target in node.targets:
                bound.update(target_names(target.target))
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign, cst.For, cst.CompFor,
                               cst.NamedExpr)):
            bound.update(target_names(node.target))
        elif isinstance(node, cst.AsName):
            bound.update(target_names(node.name))
        elif isinstance(node, (cst.FunctionDef, cst.ClassDef)):
            bound.add(node.name.value)
            return
        elif isinstance(node, cst.Lambda):
            return
        elif isinstance(node, (cst.Global, cst.Nonlocal)):
            declared.update(item.name.value for item in node.names)
        for child in child_nodes(node):
            visit(child)
    visit(function.body)
    return bound - declared


def _closure_reads(root: Sequence[cst.BaseStatement],
                   cache: dict[int, frozenset[str]]) -> frozenset[str]:
    """The names the functions, lambdas and classes defined anywhere in `root` read (or declare
    global), which they may do after `root` ends; `cache` keeps each statement's."""
    found: set[str] = set()
    for statement in root:
        known = cache.get(id(statement))
        if known is None:
            inner: set[str] = set()
            _visit_closures(statement, inner)
            known = cache[id(statement)] = frozenset(inner)
        found |= known
    return frozenset(found)


def _visit_closures(node: cst.CSTNode, found: set[str]) -> None:
    if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Global, cst.Nonlocal)):
        _collect_reads(node, found, found)
        return
    for child in child_nodes(node):
        _visit_closures(child, found)


@dataclass
class FileReads:
    """What the walks of one file share: the names each statement reads, cached by node
    (without and with `.shape` reads), and whether the file calls `locals()`/`vars()`, through
    which any name may be read."""

    frames: bool = False
    # By node: the names it reads, without and with those read only for their shape.
    reads: dict[int, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)
    closures: dict[int, frozenset[str]] = field(default_factory=dict)  # what nested defs read


class UnreadResults:
    """The reads of one walked body (`root`, a function's or, with `module`, a module's, whose
    names outlive it). `shared`: what every walk of the file shares; the body's own reads
    are this walk's."""

    def __init__(self, root: Sequence[cst.BaseStatement], module: bool,
                 constants: Mapping[str, bool], shared: FileReads | None = None) -> None:
        self._root = root
        self._module = module
        self._constants = constants
        shared = shared or FileReads(frames=True)
        self._frames = shared.frames
        self._shared = shared
        self._closures = shared.closures
        self._body_reads: dict[int, frozenset[str]] = {}  # by a list's id: this walk's only

    def unread(self, call: cst.Call, statement: cst.BaseStatement | None,
               block: Sequence[cst.BaseStatement] | None, read_only: bool = False) -> bool:
        """`statement` (of `block`) is `names = ...call...` and nothing reads those names
        afterwards (or only their `.shape`/`.dtype`/`.ndim`): the draw reaches no result.
        With `read_only`, names that only feed names nothing reads reach no result either,
        even when they outlive the function (for a call the analysis cannot tell)."""
        if (statement is None or block is None
                or not isinstance(statement, cst.SimpleStatementLine)
                or len(statement.body) != 1):
            return False
        small = statement.body[0]
        if not isinstance(small, (cst.Assign, cst.AnnAssign)) or small.value is None:
            return False
        targets = ([target.target for target in small.targets]
                   if isinstance(small, cst.Assign) else [small.target])
        if not all(plain_target(target) for target in targets) or not evaluated_within(
                small.value, call):
            return False
        names = {name for target in targets for name in target_names(target)}
        return bool(names) and all(self._dead(name, statement, block, 0, read_only)
                                   for name in names)

    def _dead(self, name: str, statement: cst.BaseStatement,
              block: Sequence[cst.BaseStatement], depth: int = 0,
              read_only: bool = False) -> bool:
        """Nothing reads `name` after `statement`: it is bound anew first (reads of its
        `.shape` before that do not count: `y = None` after `n = y.shape[0]`), or the function
        (or `__main__` script) ends without any read, its shape's included."""
        root = self._root
        shared = self._shared
        position = next((i for i, known in enumerate(block) if known is statement), None)
        shaped = False
        # The statements after it first: most draws are read in the next few (cheap).
        for later in block[position + 1:] if position is not None else ():
            read = name in reads_in(later, shared)
            if read and not (depth < 2 and self._feeds_unread(name, later, block, depth,
                                                               read_only)):
                return False
            if name in names_rebound(later, self._constants):
                return not self._reads_frames()
            # Outliving the function after feeding names nothing reads counts as a result,
            # unless `read_only`.
            shaped = shaped or (name in reads_in(later, shared, shapes=True) and not (
                read and read_only))
        if self._reads_frames():
            return False
        if not self._module and name not in self._everywhere():
            return True
        if position is None or shaped:
            return False
        # The end of the block: the function's end, or a `__main__` script's.
        if block is root and not self._module:
            main = False
        elif self._module and any(isinstance(top, cst.If) and is_main_guard(top.test)
                                  and isinstance(top.body, cst.IndentedBlock)
                                  and top.body.body is block for top in root):
            main = True
        else:
            return False
        if name in _closure_reads(root, self._closures):
            return False
        if main:
            index = next(i for i, top in enumerate(root) if isinstance(top, cst.If)
                         and isinstance(top.body, cst.IndentedBlock) and top.body.body is block)
            return not any(name in reads_in(top, shared, shapes=True)
                           for top in root[index + 1:])
        return True

    def _everywhere(self) -> frozenset[str]:
        """Every name the body reads, `.shape` reads included (from the statements' reads,
        which other walks share)."""
        known = self._body_reads.get(id(self._root))
        if known is None:
            known = self._body_reads[id(self._root)] = frozenset().union(
                *(reads_in(statement, self._shared, shapes=True)
                  for statement in self._root))
        return known

    def _reads_frames(self) -> bool:
        """The body calls `locals()` or `vars()`: any name may be read through them."""
        return self._frames and ("locals" in self._everywhere() or "vars" in self._everywhere())

    def _feeds_unread(self, name: str, statement: cst.BaseStatement,
                      block: Sequence[cst.BaseStatement], depth: int,
                      read_only: bool = False) -> bool:
        """`statement` reads `name` only to assign names nothing reads (`z = net(x)` with `z`
        bound anew before any read; `key, sub = split(key)` with neither read again): `name`
        reaches nothing through it."""
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            return False
        small = statement.body[0]
        if not isinstance(small, cst.Assign) or not all(
                plain_target(target.target) for target in small.targets):
            return False
        names = {bound for target in small.targets for bound in target_names(target.target)}
        return bool(names) and all(
            self._dead(bound, statement, block, depth + 1, read_only) for bound in names)
