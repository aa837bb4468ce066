"""Putting off the question whether a draw's result reaches anything (`key_deferred.py`) changes
no finding: OPT020 on its fixtures and on the recall benchmark's programs (`--preview`
included) reports the same with every draw asked as it comes. The runs go through the real CLI,
in this process; the counts show that both paths of the deferral were taken (a draw put off, a
walk made again for a put-off draw that reached nothing), so the comparison covers them."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import KEY_TREES, key_findings
from optlint.analysis import key_deferred
from optlint.analysis.key_record import KeyRecorder

TREES = KEY_TREES
_findings = key_findings


@pytest.fixture
def counts(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many draws were put off, and how many walks made again for one."""
    counted = {"deferred": 0, "walked again": 0}
    defer = KeyRecorder._defer
    found = key_deferred.UnreadDrawFound.__init__

    def counted_defer(self: KeyRecorder, *args: object) -> bool:
        deferred = defer(self, *args)  # type: ignore[arg-type]
        counted["deferred"] += deferred
        return deferred

    def counted_found(self: key_deferred.UnreadDrawFound, flow: object) -> None:
        counted["walked again"] += 1
        found(self, flow)

    monkeypatch.setattr(KeyRecorder, "_defer", counted_defer)
    monkeypatch.setattr(key_deferred.UnreadDrawFound, "__init__", counted_found)
    return counted


@pytest.mark.parametrize("tree", TREES, ids=lambda tree: tree.name)
def test_putting_off_draws_changes_no_finding(tree: Path, counts: dict[str, int],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    put_off = _findings(tree)
    assert put_off and counts["deferred"] > 0
    monkeypatch.setattr(KeyRecorder, "defers", False)
    assert _findings(tree) == put_off


OVERWRITTEN = '''\
import jax


def draws(key):
    key, sub = jax.random.split(key)
    x = jax.random.normal(sub, (3,))
    x = jax.random.normal(sub, (3,))
    return x
'''


def test_a_put_off_draw_that_reaches_nothing_is_no_draw(tmp_path: Path,
                                                        counts: dict[str, int]) -> None:
    """The first draw's result is overwritten unread: no reuse, found by walking again."""
    (tmp_path / "m.py").write_text(OVERWRITTEN)
    assert _findings(tmp_path) == []
    assert counts["walked again"] == 1
    read = OVERWRITTEN.replace("    x = jax.random.normal(sub, (3,))\n    x = ",
                               "    x = jax.random.normal(sub, (3,))\n    print(x)\n    x = ")
    (tmp_path / "m.py").write_text(read)
    assert [line for _, line, _, _ in _findings(tmp_path)] == [8]
