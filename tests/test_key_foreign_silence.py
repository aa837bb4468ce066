"""A flow made for another file's lookups tells a function of its file that records no
consumption without that function's summary (`key_foreign_silence.py`), and that changes no
finding: the linted file's reuse of a key through `utils.sample` stays, `utils.size_of` (given
the key, drawing nothing) is not summarised, and with every called function summarised the
findings are the same (the fixture trees too: `test_key_silent_functions.py` switches
`SILENT_UNSUMMARISED` off for both gates)."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from conftest import key_findings
from optlint.analysis import key_walk_gate
from optlint.analysis.key_calls import FileKeyCalls

UTILS = """\
import jax


def size_of(key):
    return len(key)


def sample(key):
    return jax.random.normal(key, (size_of(key),))
"""

MAIN = """\
from utils import sample


def f(key):
    a = sample(key)
    b = sample(key)
    return a + b
"""


@pytest.fixture
def summarised(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the functions whose summaries are made, by the file each is in."""
    made: list[str] = []
    summary = FileKeyCalls.summary

    def noted(self: FileKeyCalls, node: cst.FunctionDef | cst.Lambda) -> object:
        owner = self.foreign.owner_of.get(id(node))
        if (owner is None or owner is self) and id(node) not in self.summaries and isinstance(
                node, cst.FunctionDef):
            made.append(f"{Path(self.ctx.filename).name}:{node.name.value}")
        return summary(self, node)

    monkeypatch.setattr(FileKeyCalls, "summary", noted)
    return made


def _write(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "utils.py").write_text(UTILS)
    (tmp_path / "main.py").write_text(MAIN)


def test_a_silent_function_of_another_file_is_not_summarised(
        tmp_path: Path, summarised: list[str]) -> None:
    _write(tmp_path)
    found = key_findings(tmp_path)
    assert [(Path(name).name, line) for name, line, _, _ in found] == [("main.py", 6)]
    assert "utils.py:sample" in summarised
    assert "utils.py:size_of" not in summarised


def test_the_same_findings_with_every_function_summarised(
        tmp_path: Path, summarised: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path)
    found = key_findings(tmp_path)
    monkeypatch.setattr(key_walk_gate, "SILENT_UNSUMMARISED", False)
    assert key_findings(tmp_path) == found
    assert "utils.py:size_of" in summarised
