"""A read-only walk over a libcst tree, several times faster than `module.visit(visitor)`.

libcst's visitor rebuilds every node on the way back up (its visit doubles as a transformer), which
costs more than parsing the file did. Rules only read the tree, so this walk reads each node's
fields directly, and skips whitespace, commas, brackets and operators, where no rule looks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import libcst as cst

from optlint.generated_code import define

# Pure syntax: never holds a name, a call or a statement.
_TRIVIA = (
    cst.BaseParenthesizableWhitespace, cst.TrailingWhitespace, cst.EmptyLine, cst.Newline,
    cst.Comma, cst.Dot, cst.Semicolon, cst.Colon, cst.AssignEqual, cst.LeftParen, cst.RightParen,
    cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftCurlyBrace, cst.RightCurlyBrace,
    cst.BaseBinaryOp, cst.BaseUnaryOp, cst.BaseBooleanOp,
    cst.BaseCompOp, cst.BaseAugOp, cst.ImportStar, cst.Comment, cst.MaybeSentinel,
)
# Fields that only ever hold trivia, never read: skipping them by name saves a `getattr` and a
# type check on every node (each node has several).
_TRIVIA_FIELDS = frozenset({
    "lpar", "rpar", "comma", "colon", "first_colon", "second_colon", "dot", "equal",
    "semicolon", "lbrace", "lbracket", "rbrace", "rbracket", "leading_lines", "empty_lines",
    "lines_after_decorators", "trailing_whitespace", "leading_whitespace", "newline", "header",
    "footer", "operator", "star", "asynchronous", "posonly_ind", "relative", "trailing_comma",
    "comment", "default_indent", "default_newline", "encoding", "has_trailing_newline",
})
# Nodes that hold no node but trivia: a walk gains nothing by entering one unless its visitor
# handles that type. A third of the nodes the index's walk met on levanter were `Name`s.
LEAVES = frozenset({cst.Name, cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString,
                    cst.FormattedStringText, cst.Ellipsis, cst.Pass, cst.Break, cst.Continue})
# type -> whether the walk enters values of that type. libcst's base classes are ABCs, whose
# isinstance checks are slow; one check per type, cached, keeps the walk cheap.
_ENTER: dict[type, bool] = {}
# visitor type -> `_ENTER` for that visitor: the leaves it has no handler for are not entered.
_VISITOR_ENTER: dict[type, dict[type, bool]] = {}
_Handler = Callable[..., Any] | None
# (visitor type, node type) -> (visit handler, leave handler, fields that may hold nodes,
# the visitor's `_VISITOR_ENTER` table)
_Plan = tuple[_Handler, _Handler, tuple[str, ...], dict[type, bool]]
_PLANS: dict[tuple[type, type], _Plan] = {}


# The same classes as a set, for `_enters`: libcst's are ABCs, whose first `issubclass` check
# against a tuple of 23 of them walks their subclasses (47 ms for libcst's 216 classes, paid by
# every one-file run); the class's own MRO says the same (libcst registers no virtual
# subclasses: tests/test_walk_enters.py compares both on every libcst class).
_TRIVIA_CLASSES = frozenset(_TRIVIA)


def _enters(value_type: type) -> bool:
    enters = _ENTER.get(value_type)
    if enters is None:
        mro = value_type.__mro__
        enters = cst.CSTNode in mro and _TRIVIA_CLASSES.isdisjoint(mro)
        _ENTER[value_type] = enters
    return enters


def _visitor_enters(visitor_type: type) -> dict[type, bool]:
    table = _VISITOR_ENTER.get(visitor_type)
    if table is None:
        table = _VISITOR_ENTER[visitor_type] = {
            leaf: any(hasattr(visitor_type, f"{when}_{leaf.__name__}")
                      for when in ("visit", "leave"))
            for leaf in LEAVES}
    return table


def _plan(visitor_type: type, node_type: type) -> _Plan:
    name = node_type.__name__
    fields = tuple(field.name for field in dataclasses.fields(node_type)
                   if field.name not in _TRIVIA_FIELDS and not field.name.startswith("whitespace"))
    plan = (getattr(visitor_type, f"visit_{name}", None),
            getattr(visitor_type, f"leave_{name}", None), fields, _visitor_enters(visitor_type))
    _PLANS[(visitor_type, node_type)] = plan
    return plan


# After this many walks in a process, walks run compiled (`_compiled_walk`): a walk function per
# node class, reading its fields by name in straight-line code rather than by `getattr` in a loop.
# On levanter the index's walks take a fifth fewer instructions so (2,085M to 1,678M, compiling
# included); compiling costs ~0.1 ms a class, which a one-file run would not win back.
_COMPILED_AFTER = 32
_walks = 0
# visitor class -> node class -> its compiled walk as a child, or False where no walk enters one
_COMPILED: dict[type, dict[type, Any]] = {}
# (visitor class, node class) -> its compiled walk (as a root too)
_FUNCTIONS: dict[tuple[type, type], Callable[[cst.CSTNode, object], None]] = {}


def walk(node: cst.CSTNode, visitor: object) -> None:
    """Call `visitor.visit_<Type>(node)` before and `leave_<Type>(node)` after each node's
    children, for the node types the visitor has methods for."""
    global _walks
    if _walks < _COMPILED_AFTER:
        _walks += 1
        _walk(node, visitor)
        return
    walks = _COMPILED.get(type(visitor))
    if walks is None:
        walks = _COMPILED[type(visitor)] = {}
    compiled = (walks.get(type(node)) or _FUNCTIONS.get((type(visitor), type(node)))
                or _compiled_walk(type(visitor), type(node), walks))
    compiled(node, visitor)


def _compiled_walk(visitor_type: type, node_type: type,
                   walks: dict[type, Any]) -> Callable[[cst.CSTNode, object], None]:
    """`_walk` for nodes of `node_type`, compiled: what `_walk` does with the plan of that
    class, and the walks of its children looked up by their class in `walks`."""
    enter, leave, fields, entered = _plan(visitor_type, node_type)

    def child(value_type: type) -> Any:  # the walk of a child of that class, or False
        if value_type not in walks:
            enters = entered.get(value_type)
            walks[value_type] = (
                (enters or (enters is None and _entered(entered, value_type)))
                and (_FUNCTIONS.get((visitor_type, value_type))
                     or _compiled_walk(visitor_type, value_type, walks)))
        return walks[value_type]

    names: dict[str, Any] = {"enter": enter, "leave": leave, "walks": walks.get,
                             "child": child, "sequences": (tuple, list)}
    lines = ["def walk(node, visitor):"]
    if enter is not None:
        lines.append("    enter(visitor, node)")
    for field in fields:
        lines += [f"    value = node.{field}",
                  "    if type(value) in sequences:",
                  "        for item in value:",
                  "            found = walks(type(item))",
                  "            if found is None:",
                  "                found = child(type(item))",
                  "            if found:",
                  "                found(item, visitor)",
                  "    else:",
                  "        found = walks(type(value))",
                  "        if found is None:",
                  "            found = child(type(value))",
                  "        if found:",
                  "            found(value, visitor)"]
    if leave is not None:
        lines.append("    leave(visitor, node)")
    define("\n".join(lines) if len(lines) > 1 else "def walk(node, visitor): pass", names)
    compiled: Callable[[cst.CSTNode, object], None] = names["walk"]
    compiled.__qualname__ = f"walk_{node_type.__name__}"
    _FUNCTIONS[(visitor_type, node_type)] = compiled
    return compiled


def _walk(node: cst.CSTNode, visitor: object) -> None:
    plan = _PLANS.get((type(visitor), type(node)))
    enter, leave, fields, entered = (plan if plan is not None
                                     else _plan(type(visitor), type(node)))
    if enter is not None:
        enter(visitor, node)
    for field in fields:
        value = getattr(node, field)
        value_type = type(value)
        if value_type is tuple or value_type is list:
            for item in value:
                # `_enters`, its cache read inline: this runs for every child of every node.
                enters = entered.get(type(item))
                if enters or (enters is None and _entered(entered, type(item))):
                    _walk(item, visitor)
        else:
            enters = entered.get(value_type)
            if enters or (enters is None and _entered(entered, value_type)):
                _walk(value, visitor)
    if leave is not None:
        leave(visitor, node)


def _entered(table: dict[type, bool], value_type: type) -> bool:
    enters = table[value_type] = _enters(value_type)
    return enters


class _NoVisitor:
    pass


def child_nodes(node: cst.CSTNode) -> list[cst.CSTNode]:
    """`node`'s children in source order, without trivia: `node.children` without libcst's
    visit (which rebuilds the node), for walks that read expressions many times."""
    plan = _PLANS.get((_NoVisitor, type(node)))
    fields = plan[2] if plan is not None else _plan(_NoVisitor, type(node))[2]
    found: list[cst.CSTNode] = []
    enter = _ENTER.get
    for field in fields:
        value = getattr(node, field)
        value_type = type(value)
        if value_type is tuple or value_type is list:
            for item in value:
                # `_enters`, its cache read inline: this runs for every child of every node.
                enters = enter(type(item))
                if enters or (enters is None and _enters(type(item))):
                    found.append(item)
        else:
            enters = enter(value_type)
            if enters or (enters is None and _enters(value_type)):
                found.append(value)
    return found


class Kinds:
    """Which of some node classes a node is, asked of every node a walk meets: named classes,
    tested in order; a node of none is `OTHER`. libcst's node classes are ABCs, whose
    `isinstance` checks cost a Python-level call each: the answer is kept by node type."""

    OTHER = ""

    def __init__(self, *kinds: tuple[str, type | tuple[type, ...]]) -> None:
        self._kinds = kinds
        self._by_type: dict[type, str] = {}

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self._kinds)

    @property
    def classes(self) -> tuple[type, ...]:
        """Every class named."""
        return tuple(cls for _, classes in self._kinds
                     for cls in (classes if isinstance(classes, tuple) else (classes,)))

    def __call__(self, node: cst.CSTNode) -> str:
        kind = self._by_type.get(type(node))
        if kind is None:
            kind = self._by_type[type(node)] = next(
                (name for name, classes in self._kinds if issubclass(type(node), classes)),
                self.OTHER)
        return kind


def parent_map(root: cst.CSTNode) -> dict[int, cst.CSTNode]:
    """id of each node below `root` (trivia left out, as `child_nodes` does) -> its parent:
    one walk, for questions about many nodes' ancestors."""
    parents: dict[int, cst.CSTNode] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        for child in child_nodes(node):
            parents[id(child)] = node
            stack.append(child)
    return parents


def nodes_below(root: cst.CSTNode) -> list[cst.CSTNode]:
    """`root` and every node below it (`child_nodes`: no trivia), depth first, as a list."""
    found, pending = [], [root]
    while pending:
        node = pending.pop()
        found.append(node)
        pending.extend(child_nodes(node))
    return found


def descendants(root: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """`root` and every node below it, trivia included (libcst's `children`), depth first."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


# `f` or `obj.attr`: how calls are made and keys held, asked of every call and argument.
NAME_OR_ATTRIBUTE = Kinds(("name", cst.Name), ("attribute", cst.Attribute))
