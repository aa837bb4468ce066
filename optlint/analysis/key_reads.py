"""Which names code reads, to tell a draw whose result reaches nothing: `x = normal(key)` with
`x` bound anew before any read, or never read before the function (or `__main__` script) ends.
Such a draw is no draw for a reuse: it leaves nothing identical behind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, cast

import libcst as cst

from optlint.analysis.key_locals import function_locals
from optlint.analysis.key_syntax import (
    evaluated_within,
    is_main_guard,
    names_rebound,
    plain_target,
    target_names,
)
from optlint.analysis.walk import Kinds, child_nodes

class ReadsLibrary(Protocol):
    """What the reads of a file ask of the libraries' models (`LibraryKeyCalls`)."""

    def reads_only_shapes(self, call: cst.Call) -> bool: ...

    def drawn_key(self, call: cst.Call) -> cst.BaseExpression | None: ...

    def drawn_fields(self, call: cst.Call) -> frozenset[str]: ...

    def replaces_fields(self, call: cst.Call) -> bool: ...

# How checking functions are named (unittest's `assertEqual`, `chex.assert_shape`,
# `numpy.testing.assert_allclose`): a line of calls so named only checks what it reads.
CHECK_PREFIX = "assert"

# Attributes that read an array's shape, not its values (a draw read only for them reaches
# no result).
SHAPE_ATTRIBUTES = frozenset({"shape", "dtype", "ndim", "size", "nbytes", "itemsize",
                              "batch_shape", "event_shape"})

# Calls through which code may read any name of the frame it runs in: `locals()`, `vars()`, a
# debugger opened there. By qualified name (the builtins by their own).
FRAME_READERS = frozenset({
    "locals", "vars", "breakpoint", "pdb.set_trace", "ipdb.set_trace", "IPython.embed",
    "sys._getframe", "inspect.currentframe",
})
FRAME_READER_NAMES = frozenset(name.rsplit(".", 1)[-1] for name in FRAME_READERS)
NAMESPACE_READERS = frozenset({"locals", "vars"})


def reads_in(node: cst.CSTNode | Sequence[cst.BaseStatement], shared: FileReads,
             shapes: bool = False) -> frozenset[str]:
    """The names `node` reads (without `shapes`, a name only read for `.shape`/`.dtype`/
    `.ndim` is not): both sets made in one pass, cached by node for the file."""
    known = shared.reads.get(id(node))
    if known is None:
        found: set[str] = set()
        shaped: set[str] = set()
        for statement in [node] if isinstance(node, cst.CSTNode) else node:
            _collect_reads(statement, found, shaped, shared.library)
        known = shared.reads[id(node)] = (frozenset(found), frozenset(found | shaped))
    return known[1] if shapes else known[0]


def _target_reads(target: cst.CSTNode, found: set[str], shaped: set[str] | None,
                  library: ReadsLibrary | None = None) -> None:
    if isinstance(target, cst.Name):
        return
    if isinstance(target, (cst.Tuple, cst.List)):
        for element in target.elements:
            _target_reads(element.value, found, shaped, library)
    elif isinstance(target, cst.StarredElement):
        _target_reads(target.value, found, shaped, library)
    else:
        _collect_reads(target, found, shaped, library)


# The nodes `_collect_reads` tests for (any other is read through its children).
_READ_KINDS = Kinds(("name", cst.Name), ("tested", (
    cst.Call, cst.Attribute, cst.Arg, cst.Assign, cst.AnnAssign, cst.For, cst.CompFor,
    cst.NamedExpr, cst.AsName, cst.FunctionDef, cst.Lambda, cst.ClassDef, cst.Param, cst.Import,
    cst.ImportFrom, cst.Del, cst.Global, cst.Nonlocal)))


def _collect_reads(node: cst.CSTNode, found: set[str], shaped: set[str] | None = None,
                   library: ReadsLibrary | None = None) -> None:
    """Adds the names `node` reads to `found`, those read only for their shape to `shaped`
    (None: left out; `found` itself: counted as reads). `library` tells the calls that read
    only their arguments' shapes (`chex.assert_equal_shape([a, b])`), and the draws."""
    kind = _READ_KINDS(node)
    if kind == Kinds.OTHER:  # most nodes: none of the tests below holds
        for child in child_nodes(node):
            _collect_reads(child, found, shaped, library)
        return
    if kind == "name":  # the next most: read as the test for a name below does
        found.add(cast(cst.Name, node).value)
        return
    if isinstance(node, cst.Call) and library is not None and library.reads_only_shapes(node):
        _collect_reads(node.func, found, shaped, library)
        for arg in node.args:
            _shape_reads(arg.value, found, shaped, library)
        return
    if isinstance(node, cst.Name):
        found.add(node.value)
    elif isinstance(node, cst.Attribute):
        drawn = library.drawn_key(node.value) if (
            library is not None and isinstance(node.value, cst.Call)
            and node.attr.value in SHAPE_ATTRIBUTES) else None
        if isinstance(node.value, cst.Name) and node.attr.value in SHAPE_ATTRIBUTES:
            if shaped is not None:
                shaped.add(node.value.value)
        elif drawn is not None and isinstance(node.value, cst.Call):
            # `normal(key, s).nbytes`: a draw's shape is the same for every key, so the key is
            # not read (neither its values nor its shape).
            _collect_reads(node.value.func, found, shaped, library)
            for arg in node.value.args:
                if arg.value is not drawn:
                    _collect_reads(arg, found, shaped, library)
        else:
            _collect_reads(node.value, found, shaped, library)
    elif isinstance(node, cst.Arg):
        _collect_reads(node.value, found, shaped, library)
    elif isinstance(node, cst.Assign):
        for target in node.targets:
            _target_reads(target.target, found, shaped, library)
        _collect_reads(node.value, found, shaped, library)
    elif isinstance(node, cst.AnnAssign):
        _target_reads(node.target, found, shaped, library)
        if node.value is not None:
            _collect_reads(node.value, found, shaped, library)
    elif isinstance(node, (cst.For, cst.CompFor)):
        _target_reads(node.target, found, shaped, library)
        for child in child_nodes(node):
            if child is not node.target:
                _collect_reads(child, found, shaped, library)
    elif isinstance(node, cst.NamedExpr):
        _collect_reads(node.value, found, shaped, library)
    elif isinstance(node, cst.AsName):
        _target_reads(node.name, found, shaped, library)
    elif isinstance(node, (cst.FunctionDef, cst.Lambda)):
        # A nested function's own locals (`k1` assigned in it) are not the enclosing names.
        inner: set[str] = set()
        inner_shaped = inner if shaped is found else None if shaped is None else set()
        for child in child_nodes(node):
            if not isinstance(node, cst.FunctionDef) or child is not node.name:
                _collect_reads(child, inner, inner_shaped, library)
        own = function_locals(node)
        found.update(inner - own)
        if shaped is not None and inner_shaped is not None and inner_shaped is not inner:
            shaped.update(inner_shaped - own)
    elif isinstance(node, cst.ClassDef):
        for child in child_nodes(node):
            if child is not node.name:
                _collect_reads(child, found, shaped, library)
    elif isinstance(node, cst.Param):
        for part in (node.default, node.annotation):
            if part is not None:
                _collect_reads(part, found, shaped, library)
    elif isinstance(node, (cst.Import, cst.ImportFrom, cst.Del)):
        return
    elif isinstance(node, (cst.Global, cst.Nonlocal)):
        found.update(item.name.value for item in node.names)
    else:
        for child in child_nodes(node):
            _collect_reads(child, found, shaped, library)


def _shape_reads(node: cst.BaseExpression, found: set[str], shaped: set[str] | None,
                 library: ReadsLibrary) -> None:
    """An argument of a call that reads only shapes: its names (alone or listed) are read for
    their shape; anything else is read as usual."""
    if isinstance(node, cst.Name):
        if shaped is not None:
            shaped.add(node.value)
    elif isinstance(node, (cst.List, cst.Tuple)):
        for element in node.elements:
            _shape_reads(element.value, found, shaped, library)
    else:
        _collect_reads(node, found, shaped, library)


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


_CLOSURES = Kinds(("closure", (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.Global,
                               cst.Nonlocal)))


def _visit_closures(node: cst.CSTNode, found: set[str]) -> None:
    if _CLOSURES(node) == "closure":
        _collect_reads(node, found, found)
        return
    for child in child_nodes(node):
        _visit_closures(child, found)


def _checks_only(node: cst.CSTNode) -> bool:
    """A line of checks (`assert x.shape == s`, `self.assertEqual(x.shape, s)`,
    `chex.assert_rank(x, 2)`): what it reads reaches no result (a printed shape does)."""
    return isinstance(node, cst.SimpleStatementLine) and all(
        isinstance(small, cst.Assert) or isinstance(small, cst.Expr) and isinstance(
            small.value, cst.Call) and _called_name(small.value).startswith(CHECK_PREFIX)
        for small in node.body)


def _called_name(call: cst.Call) -> str:
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.attr.value
    return func.value if isinstance(func, cst.Name) else ""


def _straight(statement: cst.BaseStatement, block: Sequence[cst.BaseStatement],
              steps: list[tuple[cst.CSTNode, Sequence[cst.BaseStatement]]]) -> None:
    """Adds what `statement` runs, in order, to `steps`: a `with` statement's items, then its
    body's statements; any other statement as a whole."""
    if isinstance(statement, cst.With) and isinstance(statement.body, cst.IndentedBlock):
        steps.extend((item, block) for item in statement.items)
        for inner in statement.body.body:
            _straight(inner, statement.body.body, steps)
    else:
        steps.append((statement, block))


def _note_with_parents(block: Sequence[cst.BaseStatement],
                       parents: dict[int, tuple[cst.With, Sequence[cst.BaseStatement]]]) -> None:
    """Notes the parent of each `with` body under `block`, through compound statements (not
    into nested functions or classes, which are walked by themselves)."""
    for statement in block:
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef)) or not isinstance(
                statement, cst.BaseCompoundStatement):
            continue
        if isinstance(statement, cst.With) and isinstance(statement.body, cst.IndentedBlock):
            parents[id(statement.body.body)] = (statement, block)
        for suite in _suites(statement):
            _note_with_parents(suite.body, parents)


def _suites(statement: cst.BaseCompoundStatement) -> list[cst.IndentedBlock]:
    """The indented blocks a compound statement holds (its branches', handlers' included)."""
    found: list[cst.IndentedBlock] = []
    pending: list[cst.CSTNode] = [statement]
    while pending:
        node = pending.pop()
        for child in child_nodes(node):
            if isinstance(child, cst.IndentedBlock):
                found.append(child)
            elif isinstance(child, (cst.Else, cst.If, cst.ExceptHandler, cst.Finally,
                                    cst.MatchCase, cst.ExceptStarHandler)):
                pending.append(child)
    return found


@dataclass
class FileReads:
    """What the walks of one file share: the names each statement reads, cached by node
    (without and with `.shape` reads), and the names by which the file calls what may read any
    name of a frame (`locals`, `vars`, `breakpoint`, `pdb` of `pdb.set_trace()`)."""

    frames: frozenset[str] = FRAME_READER_NAMES
    # By node: the names it reads, without and with those read only for their shape.
    reads: dict[int, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)
    closures: dict[int, frozenset[str]] = field(default_factory=dict)  # what nested defs read
    # By a walked body's id: its `with` bodies' parents (see `UnreadResults._with_parents`).
    with_parents: dict[int, dict[int, tuple[cst.With, Sequence[cst.BaseStatement]]]] = field(
        default_factory=dict)
    library: ReadsLibrary | None = None  # None: no library call is known


class UnreadResults:
    """The reads of one walked body (`root`, a function's or, with `module`, a module's, whose
    names outlive it). `shared`: what every walk of the file shares; the body's own reads
    are this walk's."""

    def __init__(self, root: Sequence[cst.BaseStatement], module: bool,
                 constants: Mapping[str, bool], shared: FileReads | None = None) -> None:
        self._root = root
        self._module = module
        self._constants = constants
        shared = shared or FileReads()
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
        library = self._shared.library
        # A layer built by the statement: the fields its key draws (a copy replacing them all
        # is no read of it).
        drawn = library.drawn_fields(call) if library is not None and small.value is call and (
            len(names) == 1) else frozenset()
        return bool(names) and all(self._dead(name, statement, block, 0, read_only, drawn)
                                   for name in names)

    def _dead(self, name: str, statement: cst.BaseStatement,
              block: Sequence[cst.BaseStatement], depth: int = 0,
              read_only: bool = False, drawn: frozenset[str] = frozenset()) -> bool:
        """Nothing reads `name`'s values after `statement`: it is bound anew first, or the
        function (or `__main__` script) ends without any read. Reads of its `.shape`/`.dtype`/
        `.ndim` (or by a call that reads only shapes) do not count before a new binding, nor
        at the end when they are only checked (`chex.assert_shape(x, s)`): a draw's shape is
        the same for every key."""
        root = self._root
        shared = self._shared
        steps, block, position = self._after(statement, block)
        fed = False
        # The statements after it first: most draws are read in the next few (cheap).
        for later, owner in steps:
            seen = name in reads_in(later, shared)
            read = seen and not (drawn and self._replaces_all(later, name, drawn))
            if read and not (depth < 2 and self._feeds_unread(name, later, owner, depth,
                                                               read_only)):
                return False
            if isinstance(later, cst.BaseStatement) and name in names_rebound(
                    later, self._constants):
                return not self._reads_frames()
            # Outliving the function after feeding names nothing reads counts as a result,
            # unless `read_only` or those names are a function's that nothing in it ever
            # reads; so does a shape kept (returned, printed), not one checked.
            fed = fed or (not read_only and not self._feeds_nothing(later) if read else (
                not seen and name in reads_in(later, shared, shapes=True)
                and not _checks_only(later)))
        if self._reads_frames():
            return False
        if not self._module and name not in self._everywhere():
            return True
        if position is None or fed:
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

    def _after(self, statement: cst.BaseStatement, block: Sequence[cst.BaseStatement]
               ) -> tuple[list[tuple[cst.CSTNode, Sequence[cst.BaseStatement]]],
                          Sequence[cst.BaseStatement], int | None]:
        """What runs after `statement` (of `block`), in order, each with the block it is in:
        a `with` statement's items then its body in place of it (a body runs once, straight
        through), and once a `with` body ends, what follows that `with`. Also the block where
        that ends, and `statement`'s place in `block` (None: not found, nothing follows)."""
        steps: list[tuple[cst.CSTNode, Sequence[cst.BaseStatement]]] = []
        position = next((i for i, known in enumerate(block) if known is statement), None)
        if position is None:
            return steps, block, None
        parents = self._with_parents()
        while True:
            for later in block[position + 1:]:
                _straight(later, block, steps)
            parent = parents.get(id(block))
            if parent is None:
                return steps, block, position
            statement, block = parent
            position = next(i for i, known in enumerate(block) if known is statement)

    def _with_parents(self) -> dict[int, tuple[cst.With, Sequence[cst.BaseStatement]]]:
        """By the id of each `with` body of the walked body: the `with` and its block."""
        known = self._shared.with_parents.get(id(self._root))
        if known is None:
            known = self._shared.with_parents[id(self._root)] = {}
            _note_with_parents(self._root, known)
        return known

    def _replaces_all(self, statement: cst.CSTNode, name: str, drawn: frozenset[str]) -> bool:
        """`statement` is `new = eqx.tree_at(lambda l: (l.weight, ...), name, values)` replacing
        every field in `drawn` and reading `name` nowhere else: it keeps nothing drawn."""
        library = self._shared.library
        if (library is None or not isinstance(statement, cst.SimpleStatementLine)
                or len(statement.body) != 1 or not isinstance(statement.body[0], cst.Assign)):
            return False
        call = statement.body[0].value
        if not isinstance(call, cst.Call) or len(call.args) < 3 or not all(
                arg.keyword is None and not arg.star for arg in call.args[:2]):
            return False
        where, tree = call.args[0].value, call.args[1].value
        if (not isinstance(tree, cst.Name) or tree.value != name
                or not isinstance(where, cst.Lambda) or len(where.params.params) != 1
                or any(name in reads_in(arg, self._shared) for arg in call.args[2:])
                or not library.replaces_fields(call)):
            return False
        param = where.params.params[0].name.value
        selected = where.body.elements if isinstance(where.body, (cst.Tuple, cst.List)) else [
            where.body]
        fields = {part.attr.value for part in (
            item.value if isinstance(item, cst.BaseElement) else item for item in selected)
            if isinstance(part, cst.Attribute) and isinstance(part.value, cst.Name)
            and part.value.value == param}
        return drawn <= fields

    def _everywhere(self) -> frozenset[str]:
        """Every name the body reads, `.shape` reads included (from the statements' reads,
        which other walks share)."""
        known = self._body_reads.get(id(self._root))
        if known is None:
            known = self._body_reads[id(self._root)] = frozenset().union(
                *(reads_in(statement, self._shared, shapes=True)
                  for statement in self._root))
        return known

    def _reads_frames(self, debugged: bool = False) -> bool:
        """The body calls `locals()` or `vars()` (with `debugged`, or opens a debugger there:
        `breakpoint()`, `pdb.set_trace()`): any name may be read through them."""
        readers = self._frames if debugged else self._frames & NAMESPACE_READERS
        return not readers.isdisjoint(self._everywhere())

    def _feeds_nothing(self, statement: cst.CSTNode) -> bool:
        """`statement` assigns only names of a function (or notebook) that `_dead` found
        unread from there on (bound anew first, or never read again before the end, where no
        nested function nor `global` reaches them) and no debugger can read: what it reads
        reaches no result through them (`dg = Data(x)  # noqa: F841`; `obs_data = Data(x)`,
        then `obs_data = None`). A module's names outlive it (a script's are there for
        `python -i`)."""
        return not self._module and isinstance(statement, cst.SimpleStatementLine) and len(
            statement.body) == 1 and isinstance(statement.body[0], cst.Assign) and not (
            self._reads_frames(debugged=True))

    def _feeds_unread(self, name: str, statement: cst.CSTNode,
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
