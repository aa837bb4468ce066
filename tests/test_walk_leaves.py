"""The read-only walk skips the leaves (`walk.LEAVES`: names, literals, `pass`) of a visitor with no
handler for them: a visitor meets every node it handles, in the same order, whether or not it
handles the leaves."""

from __future__ import annotations

from typing import Any

import libcst as cst

from optlint.analysis import walk

SOURCE = '''
import a.b as c
from .d import (e, f as g)

@c.deco(1, x=2.5, y=3j)
class K(g.Base):
    z: "int" = ...

    def m(self, p, *q, r=None, **s) -> None:
        for i in range(p):
            if i:
                continue
            elif q:
                break
            else:
                pass
        t = [u for u in s if u] + [v.w(v) for v in q]
        self.k = lambda y: y(f"{y!r:>{p}} text", b"bytes")
        return {**s, "key": t[1:2, ...]}, not r
'''


def _tree() -> cst.Module:
    return cst.parse_module(SOURCE)


def test_every_leaf_holds_no_node() -> None:
    """A leaf skipped is one with nothing below it: every leaf class appears in the sample,
    and no instance of one has a child the walk would enter."""
    met: set[type] = set()
    for node in walk.descendants(_tree()):
        if type(node) in walk.LEAVES:
            met.add(type(node))
            assert walk.child_nodes(node) == [], node
    assert met == set(walk.LEAVES)


class _Recorder:
    """Records the nodes of the types it handles, as `walk` visits and leaves them."""

    def __init__(self) -> None:
        self.events: list[tuple[str, int]] = []

    def _record(self, when: str, node: cst.CSTNode) -> None:
        self.events.append((f"{when} {type(node).__name__}", id(node)))


def _recorder(types: tuple[type, ...]) -> type[_Recorder]:
    handlers: dict[str, Any] = {}
    for node_type in types:
        name = node_type.__name__
        handlers[f"visit_{name}"] = lambda self, node: self._record("visit", node)
        handlers[f"leave_{name}"] = lambda self, node: self._record("leave", node)
    return type("Recorder", (_Recorder,), handlers)


def _libcst_events(module: cst.Module, types: tuple[type, ...]) -> list[tuple[str, int]]:
    events: list[tuple[str, int]] = []

    class Visitor(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            if type(node) in types:
                events.append((f"visit {type(node).__name__}", id(node)))
            return True

        def on_leave(self, original_node: cst.CSTNode) -> None:
            if type(original_node) in types:
                events.append((f"leave {type(original_node).__name__}", id(original_node)))

    module.visit(Visitor())
    return events


def test_a_visitor_meets_what_it_handles_as_without_the_skip() -> None:
    """The same events, in the same order, as a walk that enters every leaf (one whose visitor
    also handles them all); and the same nodes libcst's own visit meets."""
    module = _tree()
    for types in ((cst.Call, cst.Attribute), (cst.Name, cst.Call),
                  (cst.Integer, cst.SimpleString, cst.FormattedStringText, cst.Ellipsis),
                  (cst.Pass, cst.Break, cst.Continue, cst.Float, cst.Imaginary), (cst.Param,)):
        recorder = _recorder(types)()
        walk.walk(module, recorder)
        entering = _recorder(types)()
        for leaf in walk.LEAVES - set(types):  # handlers that record nothing: no leaf skipped
            setattr(type(entering), f"visit_{leaf.__name__}", lambda self, node: None)
        walk.walk(module, entering)
        assert recorder.events, types
        assert recorder.events == entering.events, types
        assert sorted(recorder.events) == sorted(_libcst_events(module, types)), types


def test_the_leaves_are_skipped_only_for_a_visitor_without_their_handlers() -> None:
    with_names = _recorder((cst.Name,))
    without = _recorder((cst.Call,))
    walk.walk(_tree(), with_names())
    walk.walk(_tree(), without())
    assert walk._visitor_enters(with_names)[cst.Name] is True
    assert walk._visitor_enters(without)[cst.Name] is False
    assert not any(walk._visitor_enters(without)[leaf] for leaf in walk.LEAVES)
