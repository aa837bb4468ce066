"""Which names code reads (`reads_in`), shared by the walks of one file (`FileReads`): what
`UnreadResults` (`key_reads.py`) asks to tell a draw whose result reaches nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from typing import Protocol, cast

import libcst as cst

from optlint.analysis.key_locals import function_locals
from optlint.analysis.walk import Kinds, child_nodes
from optlint.records import record

class ReadsLibrary(Protocol):
    """What the reads of a file ask of the libraries' models (`LibraryKeyCalls`)."""

    def reads_only_shapes(self, call: cst.Call) -> bool: ...

    def shape_only_arguments(self, call: cst.Call) -> frozenset[int]: ...

    def drawn_key(self, call: cst.Call) -> cst.BaseExpression | None: ...

    def drawn_fields(self, call: cst.Call) -> frozenset[str]: ...

    def replaces_fields(self, call: cst.Call) -> bool: ...


class ReadsIgnored(Protocol):
    """Which reads go only to parameters their functions ignore (`IgnoredArguments`)."""

    def only_ignored(self, node: cst.CSTNode, name: str) -> bool: ...


class ReadsRaises(Protocol):
    """Which small statements must raise (`ProvenRaises`): nothing after them runs."""

    def __call__(self, node: cst.BaseSmallStatement) -> bool: ...


class ReadsReturned(Protocol):
    """Which targets of a project call's result its draws reach (`DrawnReturns`)."""

    def reached(self, call: cst.Call,
                targets: Sequence[cst.BaseExpression]) -> frozenset[str] | None: ...

    def only_returned(self, call: cst.Call) -> bool: ...

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
    cst.ImportFrom, cst.Del, cst.Global, cst.Nonlocal, cst.ListComp, cst.SetComp,
    cst.GeneratorExp, cst.DictComp)))
# Views of a mapping a comprehension may iterate, and which item of each holds a value
# (`.items()` gives `(key, value)`; `.keys()` gives no value).
_MAPPING_VIEWS: dict[str, int | None] = {"items": 1, "values": 0, "keys": None}


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
    whole = library.shape_only_arguments(node) if isinstance(node, cst.Call) and (
        library is not None) else None
    if whole and library is not None:  # `jnp.zeros_like(x)`: `x` read for shape and dtype
        _collect_reads(cast(cst.Call, node).func, found, shaped, library)
        for arg in cast(cst.Call, node).args:
            if id(arg.value) in whole:
                _shape_reads(arg.value, found, shaped, library)
            else:
                _collect_reads(arg, found, shaped, library)
        return
    if isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp, cst.DictComp)):
        if not _iterated_for_shapes(node, found, shaped, library):
            for child in child_nodes(node):
                _collect_reads(child, found, shaped, library)
    elif isinstance(node, cst.Name):
        found.add(node.value)
    elif isinstance(node, cst.Attribute):
        drawn = library.drawn_key(node.value) if (
            library is not None and isinstance(node.value, cst.Call)
            and node.attr.value in SHAPE_ATTRIBUTES) else None
        held = _indexed_name(node.value) if node.attr.value in SHAPE_ATTRIBUTES else None
        if held is not None:
            # `x.shape`, `params["params"]["w"].shape`: an item's shape is the same for every
            # key; the indices themselves are read as values (a mask `x[x > 0]` reads `x`).
            if shaped is not None:
                shaped.add(held.value)
            _index_reads(node.value, found, shaped, library)
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


def _indexed_name(node: cst.BaseExpression) -> cst.Name | None:
    """The name under `node`'s subscripts (`params` of `params["params"]["w"]`, or `x` itself),
    None when something else is (a call, an attribute)."""
    while isinstance(node, cst.Subscript):
        node = node.value
    return node if isinstance(node, cst.Name) else None


def _index_reads(node: cst.BaseExpression, found: set[str], shaped: set[str] | None,
                 library: ReadsLibrary | None) -> None:
    """Adds the reads of the indices of `node`'s subscripts (not of the name they index)."""
    while isinstance(node, cst.Subscript):
        for element in node.slice:
            _collect_reads(element, found, shaped, library)
        node = node.value


def _iterated_for_shapes(node: cst.ListComp | cst.SetComp | cst.GeneratorExp | cst.DictComp,
                         found: set[str], shaped: set[str] | None,
                         library: ReadsLibrary | None) -> bool:
    """`{k: v.shape for k, v in tree.items()}`, `[x.shape for x in xs]`: a comprehension over
    one name (or its `.items()`, `.values()`, `.keys()`) that reads the items it is given only
    for their shapes reads that name only for its shape; a mapping's keys are none of its
    values. Adds the comprehension's reads; False (nothing added): not such a comprehension."""
    loop = node.for_in
    if shaped is None or shaped is found or loop.inner_for_in is not None or (
            loop.asynchronous is not None):
        return False
    source = loop.iter
    place: int | None = 0  # which item of the target holds a value (None: none does)
    if (isinstance(source, cst.Call) and not source.args
            and isinstance(source.func, cst.Attribute)
            and source.func.attr.value in _MAPPING_VIEWS):
        place = _MAPPING_VIEWS[source.func.attr.value]
        source = source.func.value
    target = loop.target
    items = [element.value for element in target.elements] if isinstance(
        target, (cst.Tuple, cst.List)) and place == 1 else [target]
    names = [item.value for item in items if isinstance(item, cst.Name)]
    if not isinstance(source, cst.Name) or len(names) != len(items) or (
            place == 1 and len(names) != 2):
        return False
    own = set(names)
    held = names[place] if place is not None else None
    parts = [node.key, node.value] if isinstance(node, cst.DictComp) else [node.elt]
    inner: set[str] = set()
    inner_shaped: set[str] = set()
    for part in [*parts, *(condition.test for condition in loop.ifs)]:
        _collect_reads(part, inner, inner_shaped, library)
    if held is not None and held in inner:
        return False
    found.update(inner - own)
    shaped.update(inner_shaped - own)
    shaped.add(source.value)
    return True


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


def closure_reads(root: Sequence[cst.BaseStatement],
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


def checks_only(node: cst.CSTNode) -> bool:
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


@record(frozen=False)
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
    ignored: ReadsIgnored | None = None  # None: every argument is read
    raises: ReadsRaises | None = None  # None: no statement is known to raise
    # By a function body's id: the place of its first line that must raise (None: none).
    raising_lines: dict[int, int | None] = field(default_factory=dict)
    returned: ReadsReturned | None = None  # None: a call's draw reaches all it returns
