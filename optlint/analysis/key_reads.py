"""Draws whose result reaches nothing (`UnreadResults`): `x = normal(key)` with
`x` bound anew before any read, or never read before the function (or `__main__` script) ends.
Such a draw is no draw for a reuse: it leaves nothing identical behind."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import libcst as cst

from optlint.analysis.key_checked_shapes import only_checked_shapes
from optlint.analysis.key_first_touch import Touch, first_touch
from optlint.analysis.key_raised_ends import raised_unread
from optlint.analysis.key_shape_results import (
    holds_draw,
    only_unshown_shapes,
    shape_read_free,
)
from optlint.analysis.key_name_reads import (
    CHECK_PREFIX,
    NAMESPACE_READERS,
    FileReads,
    closure_reads,
    reads_in,
)
from optlint.analysis.key_syntax import (
    evaluated_within,
    is_main_guard,
    names_rebound,
    plain_target,
    target_names,
)
from optlint.analysis.walk import child_nodes


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
        # While `thrown_away` asks: the calls made as statements that read the draw.
        self._thrown: list[cst.Call] | None = None
        # By (call, statement, read_only): what `unread` answered (a loop body is walked
        # twice, a draw's statement asked again by each walk of it).
        self._answers: dict[tuple[int, int, bool], bool] = {}
        self._thrown_answers: dict[tuple[int, int], cst.Call | None] = {}  # `thrown_away`'s

    def thrown_away(self, call: cst.Call, statement: cst.BaseStatement | None,
                    block: Sequence[cst.BaseStatement] | None) -> cst.Call | None:
        """The draw's names reach only calls of the file's own objects made as statements,
        whose results are thrown away (`layer(t)` in a demo), and names nothing reads: the
        first such call (None: something else reads them, or nothing does). Whatever the draw
        gives then matters only through what that call does besides returning."""
        if block is None or statement is None or not any(
                _call_statement(later) is not None for later in block):
            return None
        asked = (id(call), id(statement))
        if asked not in self._thrown_answers:  # asked again by a loop body's second walk
            self._thrown_answers[asked] = self._thrown_away(call, statement, block)
        return self._thrown_answers[asked]

    def _thrown_away(self, call: cst.Call, statement: cst.BaseStatement,
                     block: Sequence[cst.BaseStatement]) -> cst.Call | None:
        # Only a call made as a statement after the draw can be one its result reaches
        # (`_dead` looks no further than what runs after it): none, nothing to follow.
        steps, _, _ = self._after(statement, block)
        if not any(self._thrown_call(later) is not None for later, _ in steps):
            return None
        self._thrown = []
        try:
            if self.unread(call, statement, block) and self._thrown:
                return self._thrown[0]
            return None
        finally:
            self._thrown = None

    def _thrown_call(self, statement: cst.CSTNode) -> cst.Call | None:
        """`statement` calls, as a statement, a callable object the file only ever assigns
        (`layer = eqx.combine(...)`, then `layer(t, x)`): not a method (`buffer.add(x)` keeps
        what it is given), a `def` (which may print or save), a parameter, an import or a
        check (`assert_...`)."""
        called = _call_statement(statement)
        library = self._shared.library
        ctx = getattr(library, "ctx", None)
        if (called is None or ctx is None or not isinstance(called.func, cst.Name)
                or called.func.value.startswith(CHECK_PREFIX)
                or ctx.qualify(called.func) is not None):
            return None
        name = called.func.value
        bindings = ctx.index.bindings_anywhere(name)
        if not bindings or any(binding.kind != "assign" for binding in bindings):
            return None
        return called

    def unread(self, call: cst.Call, statement: cst.BaseStatement | None,
               block: Sequence[cst.BaseStatement] | None, read_only: bool = False) -> bool:
        """`statement` (of `block`) is `names = ...call...` and nothing reads those names
        afterwards (or only their `.shape`/`.dtype`/`.ndim`): the draw reaches no result.
        With `read_only`, names that only feed names nothing reads reach no result either,
        even when they outlive the function (for a call the analysis cannot tell)."""
        if self._thrown is not None or statement is None:  # `thrown_away` asks its own
            return self._unread(call, statement, block, read_only)
        asked = (id(call), id(statement), read_only)
        known = self._answers.get(asked)
        if known is None:
            known = self._answers[asked] = self._unread(call, statement, block, read_only)
        return known

    def _unread(self, call: cst.Call, statement: cst.BaseStatement | None,
                block: Sequence[cst.BaseStatement] | None, read_only: bool) -> bool:
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
        reached = self._shared.returned.reached(call, targets) if (
            self._shared.returned is not None and small.value is call) else None
        if reached is not None:  # a project call's draws reach only some of what it returns
            return all(self._dead(name, statement, block, 0, read_only, own_shape=True)
                       for name in reached)
        library = self._shared.library
        # A layer built by the statement: the fields its key draws (a copy replacing them all
        # is no read of it).
        drawn = library.drawn_fields(call) if library is not None and small.value is call and (
            len(names) == 1) else frozenset()
        # Names bound to the draw's result itself: their shape is the same for every key.
        own_shape = holds_draw(small.value, call)
        return bool(names) and all(self._dead(name, statement, block, 0, read_only, drawn,
                                              own_shape) for name in names)

    def _dead(self, name: str, statement: cst.BaseStatement,
              block: Sequence[cst.BaseStatement], depth: int = 0,
              read_only: bool = False, drawn: frozenset[str] = frozenset(),
              own_shape: bool = False) -> bool:
        """Nothing reads `name`'s values after `statement`: it is bound anew first, or the
        function (or `__main__` script) ends without any read. Reads of its `.shape`/`.dtype`/
        `.ndim` (or by a call that reads only shapes) do not count before a new binding, nor
        at the end when they keep nothing of the draw (`shape_read_free`: any such read of
        a name holding the draw itself, `own_shape`; a check or a size otherwise): a draw's
        shape is the same for every key."""
        root = self._root
        shared = self._shared
        if (depth == 0 and block is root and not self._module and shared.raises is not None
                and raised_unread(name, statement, root, shared)):
            return not self._reads_frames() and name not in closure_reads(root, self._closures)
        steps, block, position = self._after(statement, block)
        fed = False
        # The statements after it first: most draws are read in the next few (cheap).
        for later, owner in steps:
            seen = name in reads_in(later, shared)
            if seen and isinstance(later, cst.BaseCompoundStatement):
                # A branch or loop may bind the name anew before any read on its paths.
                touch = first_touch([later], name, shared)
                if touch is Touch.BOUND:
                    return not self._reads_frames() and name not in closure_reads(
                        root, self._closures)
                if touch is Touch.PASSED:
                    continue
            thrown = self._thrown_call(later) if seen and self._thrown is not None else None
            if thrown is not None and self._thrown is not None:
                self._thrown.append(thrown)  # asked by `thrown_away`: no read of its own
                continue
            if seen and shared.ignored is not None and shared.ignored.only_ignored(later, name):
                # Read only as arguments the called functions never read (`act(obs, rng)`
                # with `def act(obs, rng)` reading only `obs`): no read, not even a shape.
                if isinstance(later, cst.BaseStatement) and name in names_rebound(
                        later, self._constants):
                    return not self._reads_frames()
                continue
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
            fed = fed or (not read_only and not self._feeds_nothing(later, owner) if read else (
                not seen and name in reads_in(later, shared, shapes=True)
                and not shape_read_free(later, name, own_shape, root, shared, self._module)))
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
            # A loop body or branch ends: later code may read the name, unless the function
            # reads it nowhere but for its shape in checks.
            return not self._module and (only_checked_shapes(name, root, shared) or own_shape
                                         and only_unshown_shapes(name, root, shared))
        if name in closure_reads(root, self._closures):
            return False
        if main:
            index = next(i for i, top in enumerate(root) if isinstance(top, cst.If)
                         and isinstance(top.body, cst.IndentedBlock) and top.body.body is block)
            rest = root[index + 1:]
            return only_unshown_shapes(name, rest, shared) if own_shape else not any(
                name in reads_in(top, shared, shapes=True) for top in rest)
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
        # Most files call none (`_everywhere` reads the whole body: a module's, for its walk).
        return bool(readers) and not readers.isdisjoint(self._everywhere())

    def _feeds_nothing(self, statement: cst.CSTNode,
                       block: Sequence[cst.BaseStatement]) -> bool:
        """`statement` (of `block`) assigns only names of a function, notebook or `__main__`
        block that `_dead` found unread from there on (bound anew first, or never read again
        before the end, where no nested function nor `global` reaches them) and no
        `locals()`/`vars()` reads: what it reads reaches no result through them (`dg =
        Data(x)  # noqa: F841`; `obs_data = Data(x)`, then `obs_data = None`). A debugger
        opened there (`pdb.set_trace()`) shows them but makes no result of them. A module's
        other names outlive it (an importer reads them)."""
        main = self._module and any(isinstance(top, cst.If) and is_main_guard(top.test)
                                    and isinstance(top.body, cst.IndentedBlock)
                                    and top.body.body is block for top in self._root)
        return (not self._module or main) and isinstance(
            statement, cst.SimpleStatementLine) and len(statement.body) == 1 and isinstance(
            statement.body[0], cst.Assign) and not self._reads_frames()

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


def _call_statement(statement: cst.CSTNode) -> cst.Call | None:
    if (isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1
            and isinstance(statement.body[0], cst.Expr)
            and isinstance(statement.body[0].value, cst.Call)):
        return statement.body[0].value
    return None
