"""OPT007 where the optax version matters: `reduce_on_plateau`'s keyword was `loss=` before optax
0.2.2 and is `value=` since; `rprop` read params only before 0.2.3. With the version unknown (the
CLI always finds the installed optax, so the engine is used directly) either spelling is accepted
and only facts of the newest release are reported."""

from __future__ import annotations

from pathlib import Path

import pytest

from optlint.engine import Linter, LintOptions
from optlint.selection import Selection
from optlint.versions import KnownVersion, LibraryVersions

SOURCE = '''\
import optax
from optax import contrib

plateau = optax.chain(optax.adam(1e-3), contrib.reduce_on_plateau())


def missing(params, state, grads):
    return plateau.update(grads, state, params)


def old_spelling(params, state, grads, loss):
    return plateau.update(grads, state, params, loss=loss)


def new_spelling(params, state, grads, loss):
    return plateau.update(grads, state, params, value=loss)


def rprop(grads, state):
    return optax.rprop(1e-3).update(grads, state)
'''
MISSING, OLD, NEW, RPROP = 8, 12, 16, 20


def _messages(tmp_path: Path, version: str | None) -> dict[int, str]:
    known = {"optax": KnownVersion(version, "test")} if version else {}
    options = LintOptions(Selection(frozenset({"OPT007"})), LibraryVersions(known), tmp_path)
    result = Linter(options).lint_text(SOURCE, str(tmp_path / "train.py"))
    return {d.start.line: d.message for d in result.diagnostics}


def test_unknown_version_accepts_either_spelling(tmp_path: Path) -> None:
    messages = _messages(tmp_path, None)
    assert sorted(messages) == [MISSING]
    assert "named `loss=` on optax < 0.2.2" in messages[MISSING]


@pytest.mark.parametrize(("version", "lines"), [("0.2.1", [MISSING, NEW, RPROP]),
                                                ("0.2.8", [MISSING, OLD])])
def test_known_version_needs_its_spelling(tmp_path: Path, version: str,
                                          lines: list[int]) -> None:
    messages = _messages(tmp_path, version)
    assert sorted(messages) == lines
    if RPROP in messages:
        assert "your optax: 0.2.1" in messages[RPROP]
