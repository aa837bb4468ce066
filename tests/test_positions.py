"""optlint.positions gives libcst's own PositionProvider ranges: the whole pass without resolve's
extra walk, and on demand, a node at a time, without the whole pass."""

from __future__ import annotations

import json
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata import MetadataWrapper, PositionProvider

import optlint.positions
from optlint.analysis.walk import parent_map
from optlint.context import RuleContext
from optlint.positions import PositionsOnDemand, node_positions
from optlint.sources import open_source

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
SOURCES = sorted([*(REPO / "tests" / "fixtures").rglob("*.py"),
                  REPO / "benchmarks" / "latency_train.py"])


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(REPO)))
def test_positions_agree_with_libcst(path: Path) -> None:
    try:
        module = cst.parse_module(path.read_text(encoding="utf-8"))
    except cst.ParserSyntaxError:
        pytest.skip("libcst cannot parse it (an OPT000 fixture)")
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    assert dict(node_positions(module)) == dict(expected)


def test_crlf_and_tabs() -> None:
    module = cst.parse_module("if x:\r\n\tf(a,\r\n\t  b)  # c\r\n")
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    assert dict(node_positions(module)) == dict(expected) and len(expected) > 10


# PositionsOnDemand ---------------------------------------------------------------------------
LIBCST = Path(cst.__file__).resolve().parent
# Real files of another project, large ones among them (libcst's own nodes, many classes).
LIBRARY_SOURCES = sorted((LIBCST / "_nodes").glob("*.py"))
NOTEBOOKS = sorted((REPO / "benchmarks" / "recall").rglob("*.ipynb"))
RECALL_SOURCES = sorted((REPO / "benchmarks" / "recall" / "keys").rglob("*.py"))
# The package benchmark's trees, where `benchmarks/real_world.py` has extracted them.
REAL_WORLD = Path("~/.cache/optlint-real-world/src").expanduser()

ODD_TEXTS = {
    "crlf_and_tabs": "if x:\r\n\tf(a,\r\n\t  b)  # c\r\n\tg(key)\r\n",
    "lone_cr": "import jax\rkey = jax.random.key(0)\rif key:\r    a = f(key)\r    b = f(key)\r",
    "mixed_endings": "a = 1\r\nb = 2\nc = (3,\r 4)\r\nif a:\n    d = 5\r\n",
    "form_feeds": "a = 1\n\x0c\ndef f(key):\n    \x0c\n    return g(key)\n\x0cb = f(a)\n",
    "nested_fstrings": 'x = f"{a!r:>{width}} {f\'{b["k"]:{c}}\'}"\nif x:\n    y = f"""{\n  x}"""\n',
    "no_final_newline": "def f(key):\n    a = g(key)\n    return a",
    "no_final_newline_top": "a = g(key)\nb = g(key)\na = g(key)",
    "repeated_statements": ("key = k()\nkey = k()\ndef f():\n    key = k()\n    key = k()\n"
                            "def f():\n    key = k()\n    key = k()\nkey = k()\n"),
    "bom": "\ufeffimport jax\nkey = jax.random.key(0)\n",
    "bom_repeated": "\ufeff# c\nkey = k()\nkey = k()\nif key:\n    key = k()\n    key = k()\n",
    "continuations": "a = 1 + \\\n    2\nif a and \\\n        b:\n    c = [\n        1,\n    ]\n",
    "decorators_and_comments": ("# head\n\n@dec(1)\n# between\n@dec2\nclass A:\n    # c\n\n"
                                "    @property\n    def f(self):  # t\n        return 1\n"
                                "    # tail of class\n# tail of file\n"),
    "suites_and_semicolons": "if a: b(); c()\nelse: d()\nwhile x: y = 1; z = 2\n",
    "match": "match p:\n    case [a, *rest]:\n        f(a)\n    case {'k': v} if v:\n        g(v)\n",
    "strings_with_endings": 's = """a\r\nb\rc\n"""\nt = "x\\\r\ny"\nu = f(s)\n',
    "tabs_and_spaces": "class A:\n\tdef f(self):\n\t\tif x:\n\t\t    return 1\n\t\treturn 2\n",
    "comments_only": "# nothing\n\n# else\n",
    "empty": "",
    "async": "async def f():\n    async with a as b:\n        async for c in d:\n            await e(c)\n",
}


def _whole_pass_refused(module: cst.Module) -> None:
    raise AssertionError("the whole-module position pass ran")


def _agrees_on_demand(text: str, monkeypatch: pytest.MonkeyPatch) -> int:
    """Asks a PositionsOnDemand for the range of every node but trivia (whitespace, commas: no
    finding reports one), each equal to libcst's own provider's, without the whole pass; then a
    fresh one for every node, trivia and the module included. Returns how many were asked."""
    module = cst.parse_module(text)
    expected = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    parents = parent_map(module)
    with monkeypatch.context() as patched:
        patched.setattr(optlint.positions, "node_positions", _whole_pass_refused)
        positions = PositionsOnDemand(module, text, lambda: parents)
        asked = [node for node in expected if id(node) in parents]
        assert {node: positions[node] for node in asked} == {
            node: expected[node] for node in asked}
    fresh = PositionsOnDemand(module, text, lambda: parents)
    assert {node: fresh[node] for node in reversed(list(expected))} == dict(expected)
    return len(asked)


@pytest.mark.parametrize("path", [*SOURCES, *RECALL_SOURCES, *LIBRARY_SOURCES],
                         ids=lambda path: path.name)
def test_on_demand_agrees_with_libcst(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = path.read_text(encoding="utf-8")
    try:
        cst.parse_module(text)
    except cst.ParserSyntaxError:
        pytest.skip("libcst cannot parse it (an OPT000 fixture)")
    _agrees_on_demand(text, monkeypatch)


@pytest.mark.parametrize("name", sorted(ODD_TEXTS))
def test_on_demand_agrees_on_odd_text(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _agrees_on_demand(ODD_TEXTS[name], monkeypatch)
    assert asked or name in ("comments_only", "empty")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_on_demand_agrees_on_notebook_programs(path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    source = open_source(path)
    assert source is not None
    _agrees_on_demand(source.program, monkeypatch)


@pytest.mark.skipif(not REAL_WORLD.is_dir(), reason="benchmarks/real_world.py has not run here")
def test_on_demand_agrees_on_the_package_benchmark(monkeypatch: pytest.MonkeyPatch) -> None:
    # The first files of each package (all of them take minutes); the benchmark's own run
    # compares every finding's position.
    checked = 0
    for package in sorted(REAL_WORLD.iterdir()):
        for path in sorted(package.rglob("*.py"))[:2]:
            text = path.read_bytes().decode("utf-8", "surrogateescape")
            try:
                cst.parse_module(text)
            except (cst.ParserSyntaxError, UnicodeEncodeError):
                continue
            checked += _agrees_on_demand(text, monkeypatch)
    assert checked > 500


def test_on_demand_repeated_text_is_placed_by_what_comes_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = ODD_TEXTS["repeated_statements"]
    module = cst.parse_module(text)
    parents = parent_map(module)
    with monkeypatch.context() as patched:
        patched.setattr(optlint.positions, "node_positions", _whole_pass_refused)
        positions = PositionsOnDemand(module, text, lambda: parents)
        last = module.body[-1]
        inner = module.body[3]
        assert isinstance(inner, cst.FunctionDef)
        assert positions[last].start.line == 9
        assert positions[inner.body.body[1]].start.line == 8


def _reported(paths: list[Path], tmp_path: Path) -> list[dict[str, object]]:
    from conftest import run_optlint_in_process

    result = run_optlint_in_process(
        "check", *(str(path) for path in paths), "--no-cache", "--isolated", "--preview",
        "--unsafe-fixes", "--output-format", "json", "--jobs", "1", cwd=tmp_path)
    reported: list[dict[str, object]] = json.loads(result.stdout)
    return reported


def test_reporting_places_findings_without_the_whole_pass(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The diagnostics, roles, fix edits (imports placed among the top-level statements) and
    OPT020's `line N` in messages are the same as with the whole pass, which never runs."""
    cases = sorted({*FIXTURES.glob("OPT020/*.py"),
                    *(path.with_name(path.name.replace(".fixed.py", ".py"))
                      for path in FIXTURES.glob("OPT*/*.fixed.py"))})
    cases = [path for path in cases if not path.name.startswith("_")]
    with monkeypatch.context() as whole:
        whole.setattr(RuleContext, "positions", lambda ctx: node_positions(ctx.module))
        expected = _reported(cases, tmp_path)
    monkeypatch.setattr(optlint.positions, "node_positions", _whole_pass_refused)
    assert _reported(cases, tmp_path) == expected
    assert len(expected) > 50 and any(
        "(line " in str(found["message"]) for found in expected) and sum(
            len(found["fix"]["edits"]) > 1 for found in expected  # type: ignore[index]
            if found.get("fix")) > 3


IMPORT_PLACES = {
    "functions_and_classes": (
        '"""Doc."""\nimport os\nimport numpy as np\n\n\ndef f(x):\n    return g(x)\n\n\n'
        "@deco(h(1))\ndef k(a=m(2)): return n(a)\n\n\nclass A:\n    z = q(3)\n\n"
        "    def method(self, b=r(4)):\n        if b:\n            return s(b)\n\n"
        "    class Inner:\n        def deep(self):\n            return t(5)\n\n\n"
        "class B: w = u(6)\n\n\nv = p(7)\nif v:\n    def late():\n        return y(8)\n"
        "import jax\nimport optax\n"),
    "no_imports": "x = a(1)\n\ndef f():\n    return b(2)\n",
    "imports_below": "def f():\n    return b(2)\n\nimport optax\nc(3)\n",
}


@pytest.mark.parametrize("name", sorted(IMPORT_PLACES))
def test_imports_placed_by_the_use_node_as_by_its_line(name: str) -> None:
    """An import a fix adds goes where the line-based placement (the statements' ranges) puts
    it, for a use anywhere: in a function body, a default, a decorator, a method, at top level."""
    from optlint.fix_imports import import_edits

    text = IMPORT_PLACES[name]
    module = cst.parse_module(text)
    whole = node_positions(module)
    parents = parent_map(module)
    on_demand = PositionsOnDemand(module, text, lambda: parents)
    calls = [node for node in whole if isinstance(node, cst.Call)]
    assert calls
    for call in calls:
        line = whole[call].start.line
        for imports in ([("jax", "jax")], [("equinox", "eqx"), ("numpy", "np")],
                        [("optax", "optax")]):
            expected = import_edits(module, whole, imports, line)
            path = on_demand.holding(call)
            assert import_edits(module, on_demand, imports, line, use_path=path) == expected
