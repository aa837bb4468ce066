"""optlint parses without libcst's per-node checks (`optlint.parsing.parse_module`): the trees
and the errors must be libcst's own, and nodes built by hand afterwards are checked again."""

from __future__ import annotations

import random
from pathlib import Path

import libcst as cst
import pytest

from optlint.parsing import parse_module

ROOT = Path(__file__).resolve().parent.parent
# The training code the rules are tested on, and a few of optlint's own modules (comprehensions,
# decorators, f-strings, walrus, match-free modern syntax).
FILES = [*sorted(ROOT.glob("tests/fixtures/**/*.py"))[::3],
         *(ROOT / "optlint" / name for name in ("analysis/inference.py", "parsing.py", "cli.py"))]


def _outcome(parse: object, text: str) -> tuple[str, cst.Module | None]:
    try:
        return "parsed", parse(text)  # type: ignore[operator]
    except Exception as error:  # noqa: BLE001 - the error's type is what is compared
        return type(error).__name__, None


def _same(text: str) -> None:
    expected, tree = _outcome(cst.parse_module, text)
    found, unvalidated = _outcome(parse_module, text)
    assert found == expected, text
    if tree is not None:
        assert unvalidated is not None and unvalidated.deep_equals(tree), text
        assert unvalidated.code == text


def test_files_parse_to_libcsts_trees() -> None:
    assert len(FILES) > 50
    for path in FILES:
        _same(path.read_text(encoding="utf-8"))


def test_damaged_texts_fail_or_parse_as_libcst_says() -> None:
    """Lines cut out, characters dropped, inserted or repeated: 400 texts, most of them
    invalid."""
    chance = random.Random(21)
    for _ in range(400):
        lines = chance.choice(FILES).read_text(encoding="utf-8").splitlines(keepends=True)
        start = chance.randrange(len(lines))
        chunk = "".join(lines[start:start + chance.randint(1, 25)])
        at = chance.randrange(len(chunk))
        chunk = chance.choice([
            chunk[:at] + chunk[at + 1:],
            chunk[:at] + chance.choice("()[]{}:,*=@.\\'\"#\n \tx0!-+") + chunk[at:],
            chunk[:at] + chunk[at:at + 5] + chunk[at:],
        ])
        _same(chunk)


@pytest.mark.parametrize("text", ["x = 1\n", "def f(:\n"])
def test_nodes_built_by_hand_are_checked_again(text: str) -> None:
    _outcome(parse_module, text)
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")


def test_the_parser_does_not_import_libcst_for_each_node(monkeypatch: pytest.MonkeyPatch) -> None:
    """libcst's native parser imports `libcst` once per node it builds, through the `__import__`
    of its caller's builtins; optlint's parse calls it where that import costs nothing (see
    optlint.parsing), and the tree is the same."""
    import builtins

    text = (ROOT / "optlint" / "parsing.py").read_text(encoding="utf-8")
    parse_module(text)  # whatever the first parse imports, imported
    imports: list[str] = []
    real_import = builtins.__import__

    def counted(name: str, *args: object, **kwargs: object) -> object:
        imports.append(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", counted)
    tree = parse_module(text)
    assert imports.count("libcst") < 3
    imports.clear()
    assert cst.parse_module(text).deep_equals(tree)
    assert imports.count("libcst") > 1000  # libcst's own entry point: one per node
