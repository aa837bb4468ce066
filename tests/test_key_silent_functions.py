"""The walk gate answers a call of a function of the file whose walk can record no consumption
without making that function's summary (`WalkGate.silent`), and that changes no finding: OPT020
on its fixtures and the recall benchmark's programs (`--preview` included) reports the same with
every called function summarised."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from conftest import KEY_TREES, key_findings
from optlint.analysis import key_walk_gate
from optlint.analysis.key_calls import FileKeyCalls

# `size_of` is a helper by its calls given a key, but draws nothing: `g`'s gate asks what its
# calls consume, and neither is walked; `h` is walked (it draws twice from one key), and its
# walk reads the gate's answer for `size_of`. `two_steps` draws nothing either, but calls the function it is given
# twice: what a call of it consumes rests on its summary (`f` hands it a closure that draws).
SOURCE = """
import jax


def make_actor(key):
    def act(obs):
        return obs + jax.random.normal(key, obs.shape)
    return act


def two_steps(actor, obs):
    a = actor(obs)
    b = actor(obs)
    return a + b


def f(key, obs):
    return two_steps(make_actor(key), obs)


def size_of(x, key):
    return len(key) + len(x)


def g(x, key):
    print(size_of(x, key) + size_of(x, key))


def h(x, key):
    a = jax.random.normal(key, (3,))
    b = jax.random.uniform(key, (3,))
    return a + b + size_of(x, key)
"""


@pytest.fixture
def summarised(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the functions whose summaries are made, in order."""
    made: list[str] = []
    summary = FileKeyCalls.summary

    def noted(self: FileKeyCalls, node: cst.FunctionDef | cst.Lambda) -> object:
        if id(node) not in self.summaries and isinstance(node, cst.FunctionDef):
            made.append(node.name.value)
        return summary(self, node)

    monkeypatch.setattr(FileKeyCalls, "summary", noted)
    return made


@pytest.mark.parametrize("tree", KEY_TREES, ids=lambda tree: tree.name)
def test_calls_of_silent_functions_unsummarised_change_no_finding(
        tree: Path, summarised: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    found = key_findings(tree)
    fewer = len(summarised)
    assert found
    summarised.clear()
    monkeypatch.setattr(key_walk_gate, "SILENT_UNSUMMARISED", False)
    assert key_findings(tree) == found
    assert fewer < len(summarised), "some summaries were left unmade"


def test_a_silent_function_is_not_summarised_for_the_gate(tmp_path: Path,
                                                          summarised: list[str]) -> None:
    (tmp_path / "m.py").write_text(SOURCE)
    found = key_findings(tmp_path)
    # The closure `two_steps` runs twice, and `h`'s second draw.
    assert [line for _, line, _, _ in found] == [7, 31]
    assert "size_of" not in summarised and "h" in summarised
    assert "two_steps" in summarised  # it calls what it is given: its summary is read


def test_the_same_findings_with_every_called_function_summarised(
        tmp_path: Path, summarised: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "m.py").write_text(SOURCE)
    found = key_findings(tmp_path)
    monkeypatch.setattr(key_walk_gate, "SILENT_UNSUMMARISED", False)
    assert key_findings(tmp_path) == found
    assert "size_of" in summarised
