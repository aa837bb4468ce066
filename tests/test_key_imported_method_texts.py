"""Whether an imported project file defines a method is read from the names its text defines,
scanned once per text in a run (`key_imported_methods._defines`), not by a regex over the whole
text for every method name each importing file asks: the same answer as that regex, and the
same findings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import opt020_lines
from optlint.analysis import key_imported_methods
from test_prng_keys_imported_methods import EVALUATE, POLICIES, _write

TEXTS = [
    "class A:\n    def sample(self, rng):\n        pass\n",
    "class A:\n    async def sample (self, rng):\n        pass\n",
    "def sample\n(rng): pass\n",
    "undef sample(rng)\nxdef  other(x)\n",
    "class A:\n    def sample_actions(self): ...\n    def défini(self): ...\n",
    "s = 'def sample(' \n",
    "def  def2(x): ...\ndefsample(x)\n",
    "",
]
NAMES = ["sample", "sample_actions", "other", "défini", "def2", "samp", "x"]


class _Project:
    def __init__(self, texts: dict[Path, str]) -> None:
        self.texts = texts

    def module_text(self, path: Path) -> str | None:
        return self.texts.get(path)


@pytest.mark.parametrize("text", TEXTS)
def test_the_same_answer_as_the_regex_per_name(text: str) -> None:
    project = _Project({Path("m.py"): text})
    for name in NAMES:
        expected = re.search(rf"\bdef\s+{re.escape(name)}\s*\(", text) is not None
        assert key_imported_methods._defines(project, Path("m.py"), name) is expected, name


def test_a_changed_text_is_scanned_again() -> None:
    project = _Project({Path("m.py"): "def old(x): ..."})
    assert key_imported_methods._defines(project, Path("m.py"), "old")
    project.texts[Path("m.py")] = "def new(x): ..."
    assert not key_imported_methods._defines(project, Path("m.py"), "old")
    assert key_imported_methods._defines(project, Path("m.py"), "new")


class _Counted:
    """The scan of a text's names, counted."""

    def __init__(self, pattern: re.Pattern[str], scanned: list[int]) -> None:
        self.pattern, self.scanned = pattern, scanned

    def findall(self, text: str) -> list[str]:
        self.scanned.append(len(text))
        return self.pattern.findall(text)


def test_each_imported_text_scanned_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two method names asked of the imported `policies` module (and its `base`): each text
    scanned once, and the finding stays."""
    scanned: list[int] = []
    monkeypatch.setattr(key_imported_methods, "_DEFINED",
                        _Counted(key_imported_methods._DEFINED, scanned))
    _write(tmp_path, POLICIES)
    source = EVALUATE.replace(
        "        flat = actions.flatten()\n",
        "        flat = actions.flatten()\n        model.sample_other(key, batch)\n")
    assert opt020_lines(tmp_path, "evaluate.py", source) == [10]
    assert len(scanned) == 1  # `policies.py`: the one project module `evaluate.py` imports
