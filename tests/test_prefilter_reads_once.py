"""A run's prefilter decides each file from what the run's plan read of it (the import graph
keeps the texts it read): the file's text is not searched again for the rules' words and its
import lines. A text other than the one read (an editor's buffer, a file changed since) is
searched as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

import optlint.prefilter as prefilter
from optlint.catalog import RULE_INFOS
from optlint.config import Settings
from optlint.engine import LintOptions
from optlint.import_graph import ImportGraph
from optlint.pool import check_paths
from optlint.selection import Selection
from optlint.versions import LibraryVersions

# Neither names a library: each is decided by the words of its neighbourhood, past the first step.
FILES = {
    "solvers.py": "SOLVERS = {'lbfgs': 1}\n",
    "run.py": "from solvers import SOLVERS\n\nchosen = SOLVERS['lbfgs']\n",
}


def write(root: Path) -> list[Path]:
    for name, text in FILES.items():
        (root / name).write_text(text)
    return sorted(root / name for name in FILES)


def counting_searches(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    searched: list[str] = []
    original = prefilter.rule_words_in

    def counting(text: str) -> frozenset[str]:
        searched.append(text)
        return original(text)

    monkeypatch.setattr(prefilter, "rule_words_in", counting)
    return searched


def test_a_run_does_not_search_a_text_its_plan_read(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    paths = write(tmp_path)
    searched = counting_searches(monkeypatch)
    options = LintOptions(Selection.from_settings(Settings(project_root=tmp_path)),
                          LibraryVersions(), tmp_path)
    results = check_paths(paths, options, jobs=1)
    assert [result.filename for result in results] == [str(path) for path in paths]
    assert searched == []


def test_another_text_is_searched_as_it_is(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    paths = write(tmp_path)
    graph = ImportGraph(tmp_path, keep_texts=True)
    for path in paths:
        graph.facts(path.resolve())
    decider = prefilter.Prefilter(list(RULE_INFOS), tmp_path)
    decider.use_graph(graph)
    searched = counting_searches(monkeypatch)
    run = str(tmp_path / "run.py")
    decider.decide(FILES["run.py"], run)
    assert searched == []
    edited = FILES["run.py"] + "# edited\n"
    decider.decide(edited, run)
    assert searched == [edited]
