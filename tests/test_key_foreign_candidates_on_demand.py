"""A flow made for another file's lookups asks whether a call runs another file's method that
draws from a key an argument holds (the dearest candidate question) only of the functions the
names it is asked about reach (`key_helpers.HelpersOnDemand`); the linted file's flow not of
calls in functions its cheaper candidates already make helpers (`candidates_and_helpers`).
Neither changes a finding: switched off (`FOREIGN_ON_DEMAND`, `FOREIGN_UNREACHED_ONLY`), the
same findings, here and on the fixture trees."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from conftest import KEY_TREES, key_findings
from optlint.analysis import key_candidates
from optlint.analysis.key_call_targets import CallTargets

MODELS = """\
import jax


class Policy:
    def act(self, state):
        return jax.random.normal(state.rng, (2,))
"""

UTILS = """\
import jax
from models import Policy


def sample(key):
    return jax.random.normal(key, (2,))


def rollout(state):
    policy = Policy()
    return policy.act(state)


def noisy_rollout(x, state):
    noise = sample(x)
    policy = Policy()
    return policy.act(state) + noise
"""

MAIN = """\
from utils import sample


def f(key):
    a = sample(key)
    b = sample(key)
    return a + b
"""


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The calls asked whether they run another file's drawing method: file, flow, call."""
    calls: list[str] = []
    question = CallTargets.draws_by_foreign_method

    def noted(self: CallTargets, site):  # type: ignore[no-untyped-def]
        flow = "own" if self.summarised else "lookup"
        calls.append(f"{Path(self.ctx.filename).name} {flow} "
                     f"{cst.Module([]).code_for_node(site.node.func)}")
        return question(self, site)

    monkeypatch.setattr(CallTargets, "draws_by_foreign_method", noted)
    return calls


def _write(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "models.py").write_text(MODELS)
    (tmp_path / "utils.py").write_text(UTILS)
    (tmp_path / "main.py").write_text(MAIN)


def test_a_lookup_asks_only_of_the_functions_it_needs(
        tmp_path: Path, asked: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Can fail: asking every call, main.py's lookup of `utils.sample` asks of the calls of
    `rollout` too, which nothing of main.py reaches."""
    _write(tmp_path)
    found = key_findings(tmp_path)
    assert [(Path(name).name, line) for name, line, _, _ in found] == [("main.py", 6)]
    assert "utils.py lookup policy.act" not in asked
    asked.clear()
    monkeypatch.setattr(key_candidates, "FOREIGN_ON_DEMAND", False)
    assert key_findings(tmp_path) == found
    assert "utils.py lookup policy.act" in asked


def test_the_linted_file_skips_calls_in_functions_already_helpers(
        tmp_path: Path, asked: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Can fail: `noisy_rollout` calls `sample` (a helper by that name alone): asking
    `policy.act(state)` there changes nothing; `rollout`'s, in no helper yet, is asked."""
    _write(tmp_path)
    found = key_findings(tmp_path)
    assert "utils.py own policy.act" in asked  # (rollout's)
    assert asked.count("utils.py own policy.act") == 1
    asked.clear()
    monkeypatch.setattr(key_candidates, "FOREIGN_UNREACHED_ONLY", False)
    assert key_findings(tmp_path) == found
    assert asked.count("utils.py own policy.act") == 2


@pytest.mark.parametrize("tree", KEY_TREES, ids=lambda tree: tree.name)
def test_asking_every_call_changes_no_finding(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found = key_findings(tree)
    monkeypatch.setattr(key_candidates, "FOREIGN_ON_DEMAND", False)
    monkeypatch.setattr(key_candidates, "FOREIGN_UNREACHED_ONLY", False)
    assert key_findings(tree) == found
