"""The compiled walk (`walk` after `_COMPILED_AFTER` walks in a process) calls the same handlers
on the same nodes in the same order as the walk it replaces, and leaves the index the same."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from optlint.analysis import walk
from optlint.analysis.index import build_index
from optlint.parsing import parse_module

ROOT = Path(__file__).resolve().parent.parent
FILES = [*sorted(ROOT.glob("tests/fixtures/**/*.py"))[::3],
         *(ROOT / "optlint" / name for name in ("analysis/inference.py", "cli.py", "engine.py"))]
HANDLED = ("Call", "Attribute", "FunctionDef", "ClassDef", "Name", "Assign", "Lambda", "ListComp",
           "With", "Return", "Param", "Arg", "Integer")


class _Recorder:
    """Records each handler call: which, on what node."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, int]] = []


for _name in HANDLED:
    for _when in ("visit", "leave"):
        setattr(_Recorder, f"{_when}_{_name}",
                lambda self, node, when=_when, name=_name: self.events.append(
                    (when, name, id(node))))


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walk, "_walks", walk._COMPILED_AFTER)


def _events(tree: cst.CSTNode) -> list[tuple[str, str, int]]:
    recorder = _Recorder()
    walk.walk(tree, recorder)
    return recorder.events


def test_the_same_handlers_on_the_same_nodes(compiled: None) -> None:
    for path in FILES:
        tree = parse_module(path.read_text(encoding="utf-8"))
        generic = _Recorder()
        walk._walk(tree, generic)
        assert generic.events, path
        assert _events(tree) == generic.events, path
        statement = tree.body[-1]  # a root that is not a module
        generic = _Recorder()
        walk._walk(statement, generic)
        assert _events(statement) == generic.events, path


def _summary(tree: cst.Module) -> tuple[object, ...]:
    index = build_index(tree)
    return ([(id(site.node), site.order) for site in index.calls],
            sorted((name, [(id(site.node), site.order) for site in sites])
                   for name, sites in index.attributes.items()),
            [sorted(scope.bindings) for scope in index.every_scope],
            sorted(index.classes), len(index.functions))


def test_the_same_index(monkeypatch: pytest.MonkeyPatch) -> None:
    for path in FILES:
        tree = parse_module(path.read_text(encoding="utf-8"))
        monkeypatch.setattr(walk, "_walks", 0)
        monkeypatch.setattr(walk, "_COMPILED_AFTER", 10**9)
        expected = _summary(tree)
        monkeypatch.setattr(walk, "_COMPILED_AFTER", 0)
        assert _summary(tree) == expected, path


def test_a_one_file_check_compiles_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    from optlint.config import Settings
    from optlint.engine import Linter
    from optlint.lint_types import LintOptions
    from optlint.selection import Selection
    from optlint.versions import LibraryVersions

    monkeypatch.setattr(walk, "_walks", 0)
    monkeypatch.setattr(walk, "_FUNCTIONS", {})
    path = ROOT / "examples" / "trainer" / "train.py"
    settings = Settings(project_root=ROOT / "examples")
    linter = Linter(LintOptions(Selection.from_settings(settings), LibraryVersions(),
                                ROOT / "examples"))
    result = linter.lint_text(path.read_text(encoding="utf-8"), str(path))
    assert result.diagnostics and walk._walks > 0
    assert not walk._FUNCTIONS
