"""Work the rules share is done once per file: the chains the chain-order rules read, a callee's
qualified name, and the parent map the `if` guards of a list's parts are read from. Counted
through the real linter on a real file."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from optlint.catalog import all_codes
from optlint.engine import Linter, LintOptions
from optlint.selection import Selection
from optlint.versions import LibraryVersions

TRAIN = """import optax

def make(cfg):
    parts = []
    if cfg.clip:
        parts.append(optax.clip_by_global_norm(1.0))
    parts.append(optax.scale(-1e-3))
    return optax.chain(*parts)

def build(cfg):
    parts = []
    if cfg.decay:
        parts.append(optax.add_decayed_weights(1e-4))
    parts.append(optax.adam(1e-3))
    return optax.chain(*parts)

late = optax.chain(optax.adam(1e-3), optax.clip_by_global_norm(1.0))
"""


def _counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str,
              counts: Counter[str]) -> None:
    original: Callable[..., Any] = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        counts[name] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)


def _lint(tmp_path: Path) -> list[str]:
    options = LintOptions(Selection(frozenset(all_codes())), LibraryVersions(), tmp_path)
    result = Linter(options).lint_text(TRAIN, str(tmp_path / "train.py"))
    return [diagnostic.code for diagnostic in result.diagnostics]


def test_rules_share_one_pass_per_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from optlint.analysis import index
    from optlint.analysis.imports import ImportTable
    from optlint.rule_helpers import chain_order

    counts: Counter[str] = Counter()
    _counting(monkeypatch, chain_order, "_chains", counts)
    _counting(monkeypatch, index, "parent_map", counts)
    _counting(monkeypatch, ImportTable, "qualify", counts)
    _counting(monkeypatch, ImportTable, "_qualify", counts)
    codes = _lint(tmp_path)
    assert "OPT008" in codes  # the clip after adam is found
    # Four rules read the chains of the file; they are worked out once.
    assert counts["_chains"] == 1
    # Two lists gain a transformation under an `if`: one parent map for the file.
    assert counts["parent_map"] == 1
    # Every rule asks the name of every call's callee: each node is worked out once.
    assert 0 < counts["_qualify"] < counts["qualify"] / 3
