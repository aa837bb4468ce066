"""`isinstance` on libcst's node classes reads the MRO alone once optlint has parsed a text
(optlint/node_checks.py), and answers as ABCMeta did, on every node class."""

from __future__ import annotations

import abc
from pathlib import Path

import libcst as cst

from optlint import node_checks
from optlint.analysis.walk import descendants
from optlint.parsing import parse_module

ROOT = Path(__file__).resolve().parent.parent


def _nodes() -> dict[type, cst.CSTNode]:
    """One node of each class found in a few of optlint's own files."""
    found: dict[type, cst.CSTNode] = {}
    for name in ("analysis/inference.py", "parsing.py", "cli.py", "records.py"):
        for node in descendants(parse_module((ROOT / "optlint" / name).read_text("utf-8"))):
            found.setdefault(type(node), node)
    return found


def test_every_node_class_answers_as_abcmeta_did() -> None:
    parse_module("x = 1\n")  # the first parse installs them
    classes = node_checks.mro_checkable(cst.CSTNode)
    assert len(classes) > 150 and cst.Name in classes and cst.BaseExpression in classes
    assert all(type(cls) is node_checks._MroChecked for cls in classes)
    nodes = _nodes()
    assert len(nodes) > 60
    for cls in classes:
        for node_type, node in nodes.items():
            assert isinstance(node, cls) == abc.ABCMeta.__instancecheck__(cls, node), (cls, node)
            assert issubclass(node_type, cls) == abc.ABCMeta.__subclasscheck__(cls, node_type)


def test_a_class_with_a_virtual_subclass_keeps_abcmeta() -> None:
    class Root(abc.ABC):
        @abc.abstractmethod
        def run(self) -> None: ...

    class Registered(Root):
        pass

    class Plain(Root):
        pass

    class Hooked(Root):
        @classmethod
        def __subclasshook__(cls, other: type) -> bool:
            return True

    class BelowHooked(Hooked):
        pass

    Registered.register(int)
    # Root: a class below it has a registry; Hooked and BelowHooked: a hook on the way up.
    assert node_checks.mro_checkable(Root) == [Plain]
