"""A read-only walk over a libcst tree, several times faster than `module.visit(visitor)`.

libcst's visitor rebuilds every node on the way back up (its visit doubles as a transformer), which
costs more than parsing the file did. Rules only read the tree, so this walk reads each node's
fields directly, and skips whitespace, commas, brackets and operators, where no rule looks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import libcst as cst

# Pure syntax: never holds a name, a call or a statement.
_TRIVIA = (
    cst.BaseParenthesizableWhitespace, cst.TrailingWhitespace, cst.EmptyLine, cst.Newline,
    cst.Comma, cst.Dot, cst.Semicolon, cst.Colon, cst.AssignEqual, cst.LeftParen, cst.RightParen,
    cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftCurlyBrace, cst.RightCurlyBrace,
    cst.BaseBinaryOp, cst.BaseUnaryOp, cst.BaseBooleanOp,
    cst.BaseCompOp, cst.BaseAugOp, cst.ImportStar, cst.Comment, cst.MaybeSentinel,
)
_FIELDS: dict[type, tuple[str, ...]] = {}
_HANDLERS: dict[tuple[type, type], tuple[Callable[..., Any] | None, Callable[..., Any] | None]] = {}
# type -> whether the walk enters values of that type. libcst's base classes are ABCs, whose
# isinstance checks are slow; one check per type, cached, keeps the walk cheap.
_ENTER: dict[type, bool] = {}


def _enters(value_type: type) -> bool:
    enters = _ENTER.get(value_type)
    if enters is None:
        enters = issubclass(value_type, cst.CSTNode) and not issubclass(value_type, _TRIVIA)
        _ENTER[value_type] = enters
    return enters


def _fields(node_type: type) -> tuple[str, ...]:
    names = _FIELDS.get(node_type)
    if names is None:
        names = tuple(field.name for field in dataclasses.fields(node_type))
        _FIELDS[node_type] = names
    return names


def walk(node: cst.CSTNode, visitor: object) -> None:
    """Call `visitor.visit_<Type>(node)` before and `leave_<Type>(node)` after each node's
    children, for the node types the visitor has methods for."""
    key = (type(visitor), type(node))
    handlers = _HANDLERS.get(key)
    if handlers is None:
        name = type(node).__name__
        handlers = (getattr(type(visitor), f"visit_{name}", None),
                    getattr(type(visitor), f"leave_{name}", None))
        _HANDLERS[key] = handlers
    enter, leave = handlers
    if enter is not None:
        enter(visitor, node)
    for field in _fields(type(node)):
        value = getattr(node, field)
        value_type = type(value)
        if value_type is tuple or value_type is list:
            for item in value:
                if _enters(type(item)):
                    walk(item, visitor)
        elif _enters(value_type):
            walk(value, visitor)
    if leave is not None:
        leave(visitor, node)
