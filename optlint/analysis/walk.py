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
        if isinstance(value, cst.CSTNode):
            if not isinstance(value, _TRIVIA):
                walk(value, visitor)
        elif isinstance(value, (tuple, list)):
            for item in value:
                if isinstance(item, cst.CSTNode) and not isinstance(item, _TRIVIA):
                    walk(item, visitor)
    if leave is not None:
        leave(visitor, node)
