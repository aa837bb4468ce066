"""libcst's node constructors compiled again (optlint.node_inits) do what dataclass's did, on every
libcst node class: the same fields from the same arguments, the same defaults, the same errors."""

from __future__ import annotations

import inspect
import subprocess
import sys
from collections.abc import Callable
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

import libcst as cst
import pytest

from optlint import node_inits, parsing
from optlint.analysis.walk import descendants
from optlint.parsing import parse_module

ROOT = Path(__file__).resolve().parent.parent
FILES = [*sorted(ROOT.glob("tests/fixtures/**/*.py"))[::4],
         *(ROOT / "optlint" / name for name in ("analysis/inference.py", "parsing.py", "cli.py"))]
# The classes as libcst made them, and dataclass's `__init__` of each (before `install`).
CLASSES = node_inits._node_classes(cst.CSTNode)
ORIGINAL = {cls: node_inits._ORIGINAL.get(cls, cls.__dict__["__init__"]) for cls in CLASSES}


def _built(init: Callable[..., None], cls: type, args: dict[str, Any]) -> tuple[str, Any]:
    node = object.__new__(cls)
    try:
        init(node, **args)
    except Exception as error:  # noqa: BLE001 - the error is what is compared
        return f"{type(error).__name__}: {error}", None
    return "built", node


def _same(cls: type, args: dict[str, Any]) -> None:
    expected, by_dataclass = _built(ORIGINAL[cls], cls, args)
    found, compiled = _built(node_inits._compiled(cls), cls, args)
    assert found == expected, (cls, args)
    if by_dataclass is None:
        return
    for item in fields(cls):
        mine, theirs = getattr(compiled, item.name), getattr(by_dataclass, item.name)
        if item.default_factory is not MISSING and item.name not in args:
            assert _equal(mine, theirs), (cls, item.name)  # made afresh by each call
        else:
            assert mine is theirs, (cls, item.name)
    assert getattr(compiled, "__dict__", None) == getattr(by_dataclass, "__dict__", None)


# Syntax the files above may not hold: every operator, statement and clause.
RARE = """
async def f[T](a, /, b: int = 1, *c, d, **e) -> None:
    global g; nonlocal h
    async with x as (y, z), w: pass
    async for i in j: await k
    del a[1:2:3], b.c
    assert a is not b, "m"
    raise E from F
    x += 1; x -= 1; x *= 1; x /= 1; x //= 1; x %= 1; x **= 1; x <<= 1; x >>= 1
    x &= 1; x |= 1; x ^= 1; x @= 1
    y = (a + b - c * d / e // f % g ** h << i >> j & k | l ^ m @ n, -a, +a, ~a, not a)
    y = a < b <= c > d >= e == f != g in h not in i is j is not k and l or m
    y = lambda q, *r, s=1, **t: (yield from u)
    y = [v async for v in w if v], {v: w for v, w in x}, {v for v in w}, (v for v in w)
    y = f"{a!r:>{b}}" "c", b"d", 1.5j, 0x1, ...
    y: int
    if (z := 1): pass
    elif z: pass
    else: pass
    while z: break
    else: continue
    try: pass
    except* E as e: pass
    else: pass
    finally: pass
    match p:
        case [1, *rest] | {"k": v, **kw} | C(a, b=c) | None | -1 | 1+2j if v: pass
        case str() as s: pass
        case _: pass
    type Alias[U: int, *V, **W] = list[U]
@dec
class K[T](B, metaclass=M):
    x: int = 1
from .a import (b as c, d)
import e.f as g
from h import *
print(*args, **kwargs)
"""


def _equal(mine: object, theirs: object) -> bool:
    """Equal by value: a node equals only itself, so nodes are compared by their fields."""
    if isinstance(mine, cst.CSTNode) and isinstance(theirs, cst.CSTNode):
        return mine.deep_equals(theirs)
    if isinstance(mine, (tuple, list)) and isinstance(theirs, (tuple, list)):
        return (type(mine) is type(theirs) and len(mine) == len(theirs)
                and all(map(_equal, mine, theirs)))
    return mine == theirs


def _examples() -> dict[type, list[cst.CSTNode]]:
    found: dict[type, list[cst.CSTNode]] = {}
    texts = [path.read_text(encoding="utf-8") for path in FILES] + [RARE]
    for text in texts:
        for node in descendants(cst.parse_module(text)):
            kept = found.setdefault(type(node), [])
            if len(kept) < 3:
                kept.append(node)
    return found


EXAMPLES = _examples()


def test_every_node_class_is_compiled_again() -> None:
    assert len(CLASSES) > 150
    assert {cst.Name, cst.Call, cst.Module, cst.SimpleWhitespace, cst.FunctionDef} <= set(CLASSES)
    assert len([cls for cls in CLASSES if cls in EXAMPLES]) > 150


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_same_fields_defaults_and_errors_as_dataclass(cls: type) -> None:
    assert ([(p.name, p.default, p.kind) for p in inspect.signature(ORIGINAL[cls]).parameters.values()]
            == [(p.name, p.default, p.kind) for p in
                inspect.signature(node_inits._compiled(cls)).parameters.values()]
            or any(item.default_factory is not MISSING for item in fields(cls)))
    required = [item.name for item in fields(cls)
                if item.default is MISSING and item.default_factory is MISSING]
    for node in EXAMPLES.get(cls, []):
        every = {item.name: getattr(node, item.name) for item in fields(cls)}
        _same(cls, every)  # each field given, as the parser gives them
        _same(cls, {name: every[name] for name in required})  # the defaults
        if required:
            _same(cls, {name: every[name] for name in required[1:]})  # one missing
        _same(cls, {**every, "no_such_field": 1})
    _same(cls, {})  # every field missing, or the defaults alone
    _same(cls, {item.name: None for item in fields(cls)})  # the node's own checks fail or pass


def test_trees_parsed_with_them_are_libcsts() -> None:
    node_inits.install()
    assert node_inits.installed()
    for path in FILES:
        text = path.read_text(encoding="utf-8")
        tree = parse_module(text)
        assert tree.deep_equals(cst.parse_module(text))
        assert tree.code == text
    with pytest.raises(cst.CSTValidationError):  # built by hand: still checked
        cst.Name("not a name")


def test_a_parse_calls_no_post_init_once_they_are_compiled(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """While a text is parsed libcst's checks are off (`__post_init__` does nothing there): a
    compiled constructor does not call it then, and calls it again after."""
    node_inits.install()
    monkeypatch.setattr(parsing, "_parsed_characters", parsing._FAST_INITS_AFTER + 1)
    calls: list[cst.CSTNode] = []
    monkeypatch.setattr(parsing, "_skip_validation", calls.append)
    tree = parse_module(RARE)
    assert tree.deep_equals(cst.parse_module(RARE)) and not calls
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")


def test_installed_once_enough_text_is_parsed() -> None:
    """A one-file run never compiles them; a run over a repository does."""
    program = """
import sys
from optlint import node_inits, parsing
parsing.parse_module(open(sys.argv[1], encoding="utf-8").read())
print(node_inits.installed())
parsing._FAST_INITS_AFTER = parsing._parsed_characters + 5  # (a repository's worth, soon)
parsing.parse_module("x = 1\\n")
print(node_inits.installed())
"""
    found = subprocess.run([sys.executable, "-c", program, str(ROOT / "optlint" / "cli.py")],
                           capture_output=True, text=True, check=True, cwd=ROOT)
    assert found.stdout.split() == ["False", "True"]
