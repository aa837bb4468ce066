"""The blind recall benchmark as a guard: every reported-bug program optlint found when the
baseline was recorded is still found, and no correct look-alike gains a finding of its rule."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks" / "recall"))
import run as recall  # noqa: E402

REUSE = """# recall-case: positive
# rule: OPT020
# class: basic
# source: a test
import jax
key = jax.random.PRNGKey(0)
a = jax.random.normal(key, (3,))  # expect
b = jax.random.normal(key, (3,))  # expect
"""
SPLIT = """# recall-case: {kind}
# rule: OPT020
# source: a test
import jax
key = jax.random.PRNGKey(0)
k1, k2 = jax.random.split(key)
a = jax.random.normal(k1, (3,))  # expect
b = jax.random.normal(k2, (3,))
"""


def test_no_case_got_worse_than_the_baseline() -> None:
    cases = recall.discover()
    baseline = json.loads(recall.BASELINE.read_text(encoding="utf-8"))
    # Every recorded case still exists: a renamed case would silently leave the guard.
    idents = {case.ident for case in cases}
    assert set(baseline["found"]) <= idents
    outcome = recall.run_cases(cases, preview=False)
    assert recall.check_against(outcome, baseline, recall.labels_when_run()) == []


def write_cases(base: Path) -> None:
    for kind in ("positive", "negative"):
        (base / "keys" / kind).mkdir(parents=True)
    (base / "keys" / "positive" / "reuse.py").write_text(REUSE)
    # Correct code marked as a positive: optlint rightly finds nothing, so it counts as missed.
    (base / "keys" / "positive" / "split.py").write_text(SPLIT.format(kind="positive"))
    # A reuse filed as a negative: flagged.
    (base / "keys" / "negative" / "reuse.py").write_text(REUSE.replace("positive", "negative"))
    (base / "keys" / "negative" / "split.py").write_text(SPLIT.format(kind="negative"))


def test_the_runner_tells_found_missed_and_flagged(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    write_cases(tmp_path)
    monkeypatch.setattr(recall, "HERE", tmp_path)
    outcome = recall.run_cases(recall.discover(tmp_path), preview=False)
    assert {ident: result["ok"] for ident, result in outcome.items()} == {
        "keys/positive/reuse.py": True, "keys/positive/split.py": False,
        "keys/negative/reuse.py": False, "keys/negative/split.py": True}
    assert outcome["keys/negative/reuse.py"]["lines"] == [8]
    baseline = {"found": ["keys/positive/reuse.py", "keys/positive/split.py"], "flagged": []}
    assert recall.check_against(outcome, baseline) == [
        "keys/positive/split.py: found in the baseline, missed now",
        "keys/negative/reuse.py: a negative flagged with OPT020 on lines [8]"]
    # A positive a blind labeller ran and showed not reuse is no find to keep.
    shown = {("keys/positive/split.py", 7): "not reuse"}
    assert recall.check_against(outcome, baseline, shown) == [
        "keys/negative/reuse.py: a negative flagged with OPT020 on lines [8]"]
    assert "1 of 2" in recall.table(outcome)


def test_a_fix_pair_notebook_line_is_placed_in_its_cell(tmp_path: Path) -> None:
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": ["x = 1\n", "y = f(key)\n"]},
             {"cell_type": "markdown", "metadata": {}, "source": ["y = f(key)\n"]},
             {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": ["import jax\n", "y = f(key)\n"]}]
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4,
                                "nbformat_minor": 5}, indent=1))
    raw = path.read_text().splitlines()
    third = [n for n, text in enumerate(raw, start=1) if "y = f(key)" in text][2]
    assert recall._notebook_place(path, third) == (3, 2)


def test_a_role_counts_in_its_own_cell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The mark is on the first draw, in another cell than the finding (at the second draw):
    the finding's role for the first draw counts there, not at that line of the finding's cell."""
    def code(*lines: str) -> dict[str, object]:
        return {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                "source": [line + "\n" for line in lines]}

    header = ("# recall-case: positive", "# rule: OPT020", "# class: notebook", "# source: a test",
              "import jax", "key = jax.random.PRNGKey(0)")
    (tmp_path / "keys" / "positive").mkdir(parents=True)
    cells = [code(*header), code("a = jax.random.normal(key, (3,))  # expect"),
             code("x = 1", "b = jax.random.normal(key, (3,))", "print(a + b)")]
    (tmp_path / "keys" / "positive" / "cells.ipynb").write_text(json.dumps(
        {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    monkeypatch.setattr(recall, "HERE", tmp_path)
    outcome = recall.run_cases(recall.discover(tmp_path), preview=False)
    assert outcome["keys/positive/cells.ipynb"]["ok"]
    assert outcome["keys/positive/cells.ipynb"]["lines"] == [2]  # in cell 3


def test_every_pair_shown_not_reuse_is_an_opt020_row_of_the_manifest() -> None:
    """A row of not_reuse_when_run.tsv that names no OPT020 pair would silently count nothing.
    The pair may be in any manifest `run.py` reads (a held-out set's too)."""
    sys.path.insert(0, str(REPO / "benchmarks" / "recall" / "fix_pairs"))
    import extract  # type: ignore[import-not-found]

    folder = REPO / "benchmarks" / "recall" / "fix_pairs"
    pairs = {(r["repo"], r["commit"], r["path"], r["line"]): r["rule"]
             for name, _ in recall.MANIFESTS if (folder / name).is_file()
             for r in extract.rows(folder / name)}
    shown = recall.not_reuse_when_run()
    assert shown
    assert all(pairs.get(row) == "OPT020" for row in shown), shown - set(pairs)


def test_every_key_line_labelled_when_run_names_a_case_and_a_line_of_it() -> None:
    """A row of keys/labels_when_run.tsv that names no program, or a line past its end, would
    silently change nothing."""
    labels = recall.labels_when_run()
    assert labels
    for (ident, line), verdict in labels.items():
        path = REPO / "benchmarks" / "recall" / ident
        assert path.is_file(), ident
        assert 1 <= line <= len(path.read_text(encoding="utf-8").splitlines()), (ident, line)
        assert verdict in ("reuse", "not reuse"), verdict


def test_run_checked_keys_leaves_out_positives_shown_not_reuse_and_forgives_lines_shown_reuse(
        ) -> None:
    outcome: dict[str, dict[str, object]] = {
        "keys/positive/a.py": {"kind": "positive", "rule": "OPT020", "ok": True,
                               "expected": [3], "lines": [3]},
        "keys/positive/b.py": {"kind": "positive", "rule": "OPT020", "ok": True,
                               "expected": [5], "lines": [5]},
        "keys/negative/c.py": {"kind": "negative", "rule": "OPT020", "ok": False,
                               "expected": [], "lines": [7]},
        "keys/negative/d.py": {"kind": "negative", "rule": "OPT020", "ok": False,
                               "expected": [], "lines": [7, 9]},
    }
    labels = {("keys/positive/b.py", 5): "not reuse", ("keys/negative/c.py", 7): "reuse",
              ("keys/negative/d.py", 7): "reuse"}
    assert recall.run_checked_keys(outcome, labels).endswith(
        "found 1 of 1, negatives flagged 1 of 2")
    assert recall.run_checked_keys(outcome, {}).endswith("found 2 of 2, negatives flagged 2 of 2")


def test_a_manifest_may_start_with_comment_lines(tmp_path: Path) -> None:
    """pairs_heldout.tsv says on top who mined it and how; those lines are not rows."""
    sys.path.insert(0, str(REPO / "benchmarks" / "recall" / "fix_pairs"))
    import extract  # type: ignore[import-not-found]

    manifest = tmp_path / "pairs_heldout.tsv"
    manifest.write_text("# mined blind by a helper\n# with git log --grep\n"
                        "repo\tcommit\tpath\tline\trule\tclass\tnote\n"
                        "a/b\t0123\tx.py\t3\tOPT020\tbasic\tsplit key\n", encoding="utf-8")
    assert [r["repo"] for r in extract.rows(manifest)] == ["a/b"]
