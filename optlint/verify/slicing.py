"""A backward slice of a file's data flow: the statements needed to evaluate some expressions.

The slice keeps imports, the definitions the expressions need (functions, classes) and the
statements that build their values, in source order; never loops (the training loop), and never a
statement that writes nothing the expressions need (`main()`, logging, saving). Statements inside a
function are flattened to top level: its parameters get stand-ins (a PRNG key, a model) or are
reported as missing; in a method, `self.x` is built from the statements of `__init__` that set it.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Iterator, Sequence
from dataclasses import field

import libcst as cst

from optlint.records import record

# Names a harness may bind to a stand-in when they are parameters with no value in the file.
_KEY_NAME = re.compile(r"(^|_)(key|rng|prng|seed_key)s?$|key$", re.IGNORECASE)
_MODEL_NAME = re.compile(r"(^|_)(model|net|network|module|mlp)$", re.IGNORECASE)
# Builtins, and the helpers the harness puts in every namespace (checks.py: stand-in params).
_BUILTINS = frozenset(dir(builtins)) | {"__optlint_like__", "__optlint_standin_params__"}
_COMPOUND_BODIES = (cst.If, cst.With, cst.Try)
_LOOPS = (cst.For, cst.While)


@record(frozen=False)
class Statement:
    """One statement of a flattened scope, with what it reads and writes (names, `self.x`)."""

    node: cst.CSTNode
    code: str
    reads: set[str]
    writes: set[str]


@record(frozen=False)
class Slice:
    statements: list[Statement] = field(default_factory=list)
    bindings: dict[str, str] = field(default_factory=dict)  # parameter -> stand-in kind
    missing: list[str] = field(default_factory=list)


def key_of(node: cst.BaseExpression) -> str | None:
    """The slicing key an expression reads or writes: `x`, or `self.x`."""
    if isinstance(node, cst.Name):
        return node.value
    if (isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name)
            and node.value.value == "self"):
        return f"self.{node.attr.value}"
    return None


class _Reads(cst.CSTVisitor):
    """Every name and `self.x` an expression or statement loads (an over-approximation)."""

    def __init__(self) -> None:
        self.keys: set[str] = set()

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        key = key_of(node)
        if key is not None:
            self.keys.add(key)
            return False
        node.value.visit(self)
        return False  # `attr` is not a name read

    def visit_Name(self, node: cst.Name) -> None:
        self.keys.add(node.value)

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)  # the keyword is not a name read
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        inner = reads_of(node.body)
        params = {p.name.value for p in node.params.params}
        self.keys |= inner - params
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        self.keys |= free_keys(node)
        return False


def reads_of(node: cst.CSTNode) -> set[str]:
    visitor = _Reads()
    node.visit(visitor)
    return visitor.keys


def statement_reads(node: cst.CSTNode) -> set[str]:
    """What a statement reads; an assignment's own targets are writes, not reads."""
    if isinstance(node, cst.FunctionDef):
        return free_keys(node)
    if isinstance(node, cst.ClassDef):
        bases = {key for base in node.bases for key in reads_of(base.value)}
        body = node.body.body if isinstance(node.body, cst.IndentedBlock) else []
        for statement in body:
            bases |= statement_reads(statement)
            if isinstance(statement, cst.SimpleStatementLine):  # `weight: jax.Array` is evaluated
                bases |= {key for small in statement.body if isinstance(small, cst.AnnAssign)
                          for key in reads_of(small.annotation.annotation)}
        return {key for key in bases if not key.startswith("self.")}
    if not isinstance(node, cst.SimpleStatementLine):
        return reads_of(node)
    keys: set[str] = set()
    for small in node.body:
        if isinstance(small, cst.Assign):
            keys |= reads_of(small.value)
            for target in small.targets:
                keys |= _target_reads(target.target)
        elif isinstance(small, cst.AnnAssign):
            keys |= reads_of(small.value) if small.value is not None else set()
            keys |= _target_reads(small.target)
        elif isinstance(small, (cst.Import, cst.ImportFrom)):
            continue
        else:
            keys |= reads_of(small)  # AugAssign reads its target too, rightly
    return keys


def _target_reads(target: cst.BaseExpression) -> set[str]:
    """The names an assignment target reads: `d` in `d[k] = v`, `obj` in `obj.x = v`."""
    if key_of(target) is not None:
        return {"self"} if isinstance(target, cst.Attribute) else set()
    if isinstance(target, (cst.Tuple, cst.List)):
        return {k for element in target.elements for k in _target_reads(element.value)}
    if isinstance(target, cst.StarredElement):
        return _target_reads(target.value)
    return reads_of(target)


def free_keys(function: cst.FunctionDef) -> set[str]:
    """What a function body reads from outside: its reads minus its parameters and locals."""
    inner = reads_of(function.body)
    for decorator in function.decorators:
        inner |= reads_of(decorator.decorator)
    local = {p.name.value for p in _parameters(function)} | _bound_in_blocks(function.body)
    for statement in walk_statements(function.body.body):
        local |= writes_of(statement)
    # Parameter and return annotations are evaluated when the `def` runs (the harness runs each
    # statement on its own, so a file's `from __future__ import annotations` does not reach it).
    outside = set()
    for param in _parameters(function):
        outside |= reads_of(param.annotation.annotation) if param.annotation else set()
        outside |= reads_of(param.default) if param.default is not None else set()
    if function.returns is not None:
        outside |= reads_of(function.returns.annotation)
    return {key for key in (inner - local) | outside if not key.startswith("self.")}


def _bound_in_blocks(body: cst.CSTNode) -> set[str]:
    """Names bound by `with ... as x`, `for x in`, `except E as x` and comprehensions."""
    bound: set[str] = set()

    class Binders(cst.CSTVisitor):
        def visit_AsName(self, node: cst.AsName) -> None:
            bound.update(_target_keys(node.name))

        def visit_For(self, node: cst.For) -> None:
            bound.update(_target_keys(node.target))

        def visit_CompFor(self, node: cst.CompFor) -> None:
            bound.update(_target_keys(node.target))

    body.visit(Binders())
    return bound


def _target_keys(target: cst.BaseExpression) -> set[str]:
    key = key_of(target)
    if key is not None:
        return {key}
    if isinstance(target, (cst.Tuple, cst.List)):
        return {k for element in target.elements for k in _target_keys(element.value)}
    if isinstance(target, cst.StarredElement):
        return _target_keys(target.value)
    if isinstance(target, (cst.Subscript, cst.Attribute)):
        return _target_keys(target.value)  # `d[k] = v` and `obj.x = v` change `d` and `obj`
    return set()


def writes_of(node: cst.CSTNode) -> set[str]:
    if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        return {node.name.value}
    if isinstance(node, cst.SimpleStatementLine):
        return {key for small in node.body for key in _small_writes(small)}
    return set()


def _small_writes(small: cst.BaseSmallStatement) -> set[str]:
    if isinstance(small, cst.Assign):
        return {key for target in small.targets for key in _target_keys(target.target)}
    if isinstance(small, (cst.AnnAssign, cst.AugAssign)):
        return _target_keys(small.target)
    if isinstance(small, cst.Import):
        return {_bound_name(alias, head=True) for alias in small.names}
    if isinstance(small, cst.ImportFrom) and not isinstance(small.names, cst.ImportStar):
        return {_bound_name(alias, head=False) for alias in small.names}
    return set()


def _bound_name(alias: cst.ImportAlias, head: bool) -> str:
    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    dotted = cst.Module([]).code_for_node(alias.name)
    return dotted.split(".", 1)[0] if head else dotted


def _parameters(function: cst.FunctionDef) -> list[cst.Param]:
    params = function.params
    star = [params.star_arg] if isinstance(params.star_arg, cst.Param) else []
    kwarg = [params.star_kwarg] if params.star_kwarg is not None else []
    return [*params.posonly_params, *params.params, *star, *params.kwonly_params, *kwarg]


def walk_statements(body: Sequence[cst.CSTNode], into_loops: bool = True) -> Iterator[cst.CSTNode]:
    """Statements of a block with `if`/`with`/`try` (and optionally loops) opened up."""
    for statement in body:
        if isinstance(statement, _COMPOUND_BODIES) or (into_loops and isinstance(statement, _LOOPS)):
            for block in _blocks(statement):
                yield from walk_statements(block, into_loops)
        else:
            yield statement


def _blocks(statement: cst.CSTNode) -> Iterator[Sequence[cst.CSTNode]]:
    body = getattr(statement, "body", None)
    if isinstance(body, cst.IndentedBlock):
        yield body.body
    elif isinstance(body, cst.SimpleStatementSuite):
        yield [cst.SimpleStatementLine(body.body)]
    if isinstance(statement, cst.Try):
        for handler in statement.handlers:
            yield from _blocks(handler)
    orelse = getattr(statement, "orelse", None)
    if orelse is not None:
        yield from _blocks(orelse) if not isinstance(orelse, cst.If) else [[orelse]]
    final = getattr(statement, "finalbody", None)
    if final is not None:
        yield from _blocks(final)


def _walk_path(body: Sequence[cst.CSTNode], keep: cst.CSTNode | None) -> Iterator[cst.CSTNode]:
    """Like `walk_statements` (loops left closed), but an `if` is opened along the path to
    `keep`: the branch holding `keep` alone, as if its guard held; of an `if` before it, only
    the branches that fall through (one that returns or raises cannot precede `keep`). Of a
    `match`, the case holding `keep`."""
    for statement in body:
        if isinstance(statement, cst.If):
            branches = _alternatives(statement)
            holding = [b for b in branches if keep is not None and any(
                _contains(node, keep) for node in b)]
            for branch in holding or [b for b in branches if not _exits(b)]:
                yield from _walk_path(branch, keep)
        elif isinstance(statement, _COMPOUND_BODIES):
            for block in _blocks(statement):
                yield from _walk_path(block, keep)
        elif isinstance(statement, cst.Match):
            # The case holding `keep` alone, as if its pattern matched; the others are
            # alternatives to it.
            for case in statement.cases:
                if keep is not None and _contains(case, keep):
                    for block in _blocks(case):
                        yield from _walk_path(block, keep)
        else:
            yield statement


def _alternatives(statement: cst.If) -> list[Sequence[cst.CSTNode]]:
    """The blocks of an `if`/`elif`/`else` chain, one per branch."""
    branches = list(_blocks(statement.with_changes(orelse=None)))
    if isinstance(statement.orelse, cst.If):
        branches.extend(_alternatives(statement.orelse))
    elif statement.orelse is not None:
        branches.extend(_blocks(statement.orelse))
    return branches


def _exits(block: Sequence[cst.CSTNode]) -> bool:
    """Whether a block always leaves its function or loop: it ends in return/raise/break/
    continue, or in an `if` with an `else` whose every branch does."""
    if not block:
        return False
    last = block[-1]
    if isinstance(last, cst.SimpleStatementLine):
        return isinstance(last.body[-1], (cst.Return, cst.Raise, cst.Break, cst.Continue))
    if isinstance(last, cst.If):
        branches = _alternatives(last)
        ends_in_else = last
        while isinstance(ends_in_else.orelse, cst.If):
            ends_in_else = ends_in_else.orelse
        return ends_in_else.orelse is not None and all(_exits(b) for b in branches)
    return False


def flatten(body: Sequence[cst.CSTNode], keep: cst.CSTNode | None = None) -> list[Statement]:
    """A block as straight-line statements along the path to `keep` (see `_walk_path`); loops
    are dropped unless they hold `keep`."""
    module = cst.Module([])
    statements = []
    for node in _walk_path(body, keep):
        if isinstance(node, _LOOPS):
            if keep is not None and _contains(node, keep):
                for block in _blocks(node):
                    statements.extend(flatten(block, keep))
            continue
        if _is_useless(node):
            continue
        reads = statement_reads(node)
        code = module.code_for_node(node.with_changes(leading_lines=())) if hasattr(
            node, "leading_lines") else module.code_for_node(node)
        statements.append(Statement(node, code, reads, writes_of(node)))
    return statements


def _is_useless(node: cst.CSTNode) -> bool:
    """Statements a flattened slice can never run: return, global, nonlocal, raise, pass."""
    return isinstance(node, cst.SimpleStatementLine) and all(isinstance(small, (
        cst.Return, cst.Global, cst.Nonlocal, cst.Raise, cst.Pass, cst.Break, cst.Continue))
        for small in node.body)


def _contains(outer: cst.CSTNode, inner: cst.CSTNode) -> bool:
    found = False

    class Finder(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            nonlocal found
            if node is inner:
                found = True
            return not found

    outer.visit(Finder())
    return found


def backward(statements: list[Statement], needed: set[str]) -> tuple[list[Statement], set[str]]:
    """The statements (in order) that write what is needed, transitively; and what is left."""
    chosen: set[int] = set()
    needed = set(needed)
    # Repeat until nothing is added: a function defined earlier may call one defined later.
    while True:
        added = False
        for index in reversed(range(len(statements))):
            statement = statements[index]
            if index not in chosen and statement.writes & needed:
                chosen.add(index)
                added = True
                needed = (needed - statement.writes) | statement.reads
        if not added:
            return [statements[i] for i in sorted(chosen)], needed


def slice_for(expressions: list[cst.BaseExpression],
              layers: list[tuple[list[Statement], list[cst.Param]]]) -> Slice:
    """Slice `layers` (innermost scope first: the function, `__init__`, the module; each with
    its parameters, which shadow the outer layers) for the expressions; parameters left over get
    stand-ins when their name or annotation says what they are."""
    needed: set[str] = set()
    for expression in expressions:
        needed |= reads_of(expression)
    result = Slice()
    held: set[str] = set()
    parameters: list[cst.Param] = []
    for layer, layer_parameters in layers:
        chosen, needed = backward(layer, needed)
        result.statements[:0] = chosen
        names = {p.name.value for p in layer_parameters}
        held |= needed & names
        needed -= names
        parameters.extend(layer_parameters)
    needed |= held
    by_name = {p.name.value: p for p in parameters}
    for key in sorted(needed):
        if key in _BUILTINS:
            continue
        kind = standin_kind(key, by_name.get(key))
        if kind is not None:
            result.bindings[key] = kind
        elif key.startswith("self."):
            result.missing.append(f"`{key}` (not set in __init__ or setUp)")
        elif key in by_name:
            result.missing.append(f"a value for parameter `{key}`")
        else:
            result.missing.append(f"a definition of `{key}`")
    return result


def standin_kind(key: str, parameter: cst.Param | None) -> str | None:
    if key == "self" and parameter is not None:
        return "self"
    if parameter is None:
        return None
    annotation = ""
    if parameter.annotation is not None:
        annotation = cst.Module([]).code_for_node(parameter.annotation.annotation)
    if _KEY_NAME.search(key) or "PRNGKey" in annotation or "KeyArray" in annotation:
        return "key"
    if _MODEL_NAME.search(key) or annotation.endswith(("Module", "MLP")):
        return "model"
    return None


def calls_in(node: cst.CSTNode) -> list[cst.Call]:
    """Every call inside `node`, in source order (the verifier's trees are small: libcst's
    visitor is fine here)."""
    calls: list[cst.Call] = []

    class Collect(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            calls.append(call)

    node.visit(Collect())
    return calls
