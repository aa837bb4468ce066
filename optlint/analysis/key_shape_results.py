"""Reads of a name's shape that keep nothing of a draw (`shape_read_free`).

A draw's shape, dtype and rank are the same for every key (`normal(key, (3,)).shape`, a model's
output under `init`). Where a name holds the draw's result itself, a read of its shape alone,
kept or returned, keeps none of its random numbers: issue #25's labelling rule counts only
values that reach a result (blind runs: `keys/labels_when_run.tsv`, a helper returning
`tree_map(jnp.shape, params)`). A shape the program shows (`print(x.shape)`, a notebook cell's
last expression) still counts: it is the program's output, and the blind recall programs end
so (`notebook_haiku_init_then_apply_same_rng.ipynb`) with no run labelling them otherwise.
Where a name holds something computed from the draw, its shape may depend on the values outside
a trace (`x[x > 0]`, `jnp.nonzero(x)`), so there a shape read keeps nothing only when it is
checked (`chex.assert_shape`), given as a size to a call (`jnp.zeros(x.shape)`), or bound to
names read only as sizes (`n, = x.shape`)."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from optlint.analysis.key_name_reads import FileReads, checks_only, reads_in
from optlint.analysis.key_size_arguments import shapes_only_as_sizes
from optlint.analysis.key_syntax import plain_target, target_names
from optlint.analysis.project_values import names_in
from optlint.analysis.walk import child_nodes


def shape_read_free(statement: cst.CSTNode, name: str, own_shape: bool,
                    root: Sequence[cst.BaseStatement], shared: FileReads,
                    module: bool) -> bool:
    """`statement`, which reads `name` only for its shape, keeps nothing of the draw.
    `own_shape`: `name` holds the draw's result itself. `root`: the walked body."""
    return own_shape and not _shows(statement) or checks_only(statement) or sizes_only(
        statement, name, shared) or (not module and _sizes_held(statement, name, root, shared))


def only_unshown_shapes(name: str, root: Sequence[cst.BaseStatement],
                        shared: FileReads) -> bool:
    """`root` reads `name` nowhere but for its shape, and shows that nowhere (`_shows`)."""
    if any(name in reads_in(statement, shared) for statement in root):
        return False
    pending: list[cst.CSTNode] = [statement for statement in root
                                  if name in reads_in(statement, shared, shapes=True)]
    while pending:
        node = pending.pop()
        if isinstance(node, cst.SimpleStatementLine):
            if _shows(node) and name in reads_in(node, shared, shapes=True):
                return False
        elif isinstance(node, (cst.BaseCompoundStatement, cst.IndentedBlock, cst.Else,
                               cst.Finally, cst.ExceptHandler)):
            pending.extend(child_nodes(node))
    return True


# Calls that show what they are given (a shape printed is the program's output).
_SHOWING = frozenset({"print", "display", "pprint"})


def _shows(statement: cst.CSTNode) -> bool:
    """A line printing or displaying what it reads: `print(x.shape)`, or a bare expression (a
    notebook cell's last line, shown as its output)."""
    if not isinstance(statement, cst.SimpleStatementLine):
        return False
    for small in statement.body:
        if isinstance(small, cst.Expr):
            value = small.value
            if not isinstance(value, cst.Call):
                return True
            func = value.func
            called = func.attr.value if isinstance(func, cst.Attribute) else (
                func.value if isinstance(func, cst.Name) else "")
            if called in _SHOWING:
                return True
    return False


def holds_draw(value: cst.BaseExpression, call: cst.Call) -> bool:
    """`value` is the draw `call` itself, or a literal tuple, list or dict holding it as an item
    (`trace = {"loc": normal(key, s)}`): its shapes are the same for every key."""
    if value is call:
        return True
    if isinstance(value, (cst.Tuple, cst.List)):
        return any(element.value is call for element in value.elements)
    return isinstance(value, cst.Dict) and any(
        isinstance(element, cst.DictElement) and element.value is call
        for element in value.elements)


def sizes_only(statement: cst.CSTNode, name: str, shared: FileReads) -> bool:
    """`statement` reads `name` only for its shape, given as a size to a call."""
    library = shared.library
    ctx = getattr(library, "ctx", None)
    return ctx is not None and shapes_only_as_sizes(
        statement, name, ctx, getattr(library, "shape_only_arguments", None))


def _sizes_held(statement: cst.CSTNode, name: str, root: Sequence[cst.BaseStatement],
                shared: FileReads) -> bool:
    """`statement` is `n, = name.shape` (names bound to `name`'s shape alone), and the
    function reads those names nowhere but as sizes (`Layer(index_dim=n)`, in a nested
    function too): the shape kept reaches no result."""
    ctx = getattr(shared.library, "ctx", None)
    if (ctx is None or not isinstance(statement, cst.SimpleStatementLine)
            or len(statement.body) != 1 or not isinstance(statement.body[0], cst.Assign)):
        return False
    small = statement.body[0]
    names = {bound for target in small.targets for bound in target_names(target.target)}
    if not names or not all(plain_target(target.target) for target in small.targets) or (
            reads_in(small.value, shared, shapes=True) != {name}):
        return False
    return all(shapes_only_as_sizes(other, held, ctx, held=True) for held in names
               for other in root if other is not statement
               and any(read.value == held for read in names_in(other)))
