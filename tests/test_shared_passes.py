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


def test_callers_found_by_the_word_index_are_those_a_scan_finds(tmp_path: Path) -> None:
    """Past a few names, the files naming a function are read from an index of every file's
    words: the same files, in the same order, as scanning each text for the whole word."""
    from optlint.analysis import project
    from optlint.analysis.project import ProjectIndex

    files = {
        "a.py": "from b import train_step\ntrain_step(model)\n",
        "b.py": "def train_step(m):\n    return m\n# step_fn is not train_step_v2\n",
        "c.py": "x = 'train_stepper'\nstep = 1\n",
        "d.py": "value = step_fn(1)  # calls step_fn\n",
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    names = ["train_step", "step", "step_fn", "train_stepper", "train_step_v2", "missing", "m"]
    scanned = ProjectIndex(tmp_path)
    indexed = ProjectIndex(tmp_path)
    indexed._scans = project._SCANS_BEFORE_WORD_INDEX
    sources = scanned.project_texts()
    assert sources is not None
    for name in names:
        by_scan = scanned._files_naming(name, scanned.project_texts())
        by_index = indexed._files_naming(name, indexed.project_texts())
        assert [path.name for path in by_index] == [path.name for path in by_scan], name
    assert indexed._word_files is not None and scanned._word_files is None
    assert sorted(path.name for path in indexed._files_naming("step_fn", indexed.project_texts())
                  ) == ["b.py", "d.py"]


def test_per_file_ignores_read_once_per_file_agree_with_each_code_asked() -> None:
    from optlint.selection import Selection

    codes = frozenset(all_codes())
    selection = Selection(codes, (("tests/*", ("OPT020", "OPT00")), ("*_test.py", ("ALL",)),
                                  ("train.py", ("OPT013",))))
    for path in ("tests/test_a.py", "src/a_test.py", "train.py", "src/train.py", "a.py"):
        enabled = selection.enabled_in(path)
        assert enabled == {code for code in codes if selection.is_enabled(code, path)}, path
    assert "OPT020" not in selection.enabled_in("tests/test_a.py")
    assert "OPT020" in selection.enabled_in("a.py")
    assert not selection.enabled_in("src/a_test.py")
