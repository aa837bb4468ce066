"""The cache, attacked where round one did not look: a cache folder that is the project root,
a dependency edited while a run is in progress, odd entries in the cache folder."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from optlint import cache as cache_module
from reliability_helpers import run_cli
from test_cache import MODELS_ARRAYS_ONLY, MODELS_WITH_FUNCTION, TRAIN, project


def findings(stdout: str) -> list[str]:
    return sorted(line.split(" ")[0] for line in stdout.splitlines() if ": OPT" in line)


def test_cache_dir_dot_keeps_the_project_visible(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path, {"models.py": MODELS_WITH_FUNCTION, "train.py": TRAIN})
    (root / "pyproject.toml").write_text('[tool.optlint]\ncache-dir = "."\n')
    subprocess.run(["git", "init", "-q", "."], cwd=root, check=True)
    first = run_cli(monkeypatch, root, "check", ".", "--select", "OPT003", "--jobs", "1")
    second = run_cli(monkeypatch, root, "check", ".", "--select", "OPT003", "--jobs", "1")
    assert findings(first.stdout) == findings(second.stdout) == ["train.py:7:35:"]
    assert not (root / ".gitignore").exists()
    listed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"],
                            cwd=root, capture_output=True, text=True, check=True).stdout
    assert "train.py" in listed and "models.py" in listed


def test_a_dependency_edited_during_the_run_is_not_cached_as_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path, {"models.py": MODELS_ARRAYS_ONLY, "train.py": TRAIN})
    original_store = cache_module.LintCache.store

    def edit_then_store(self, path, result):  # type: ignore[no-untyped-def]
        # The analysis has read the arrays-only models.py; the user saves the new one now.
        (root / "models.py").write_text(MODELS_WITH_FUNCTION)
        original_store(self, path, result)

    monkeypatch.setattr(cache_module.LintCache, "store", edit_then_store)
    during = run_cli(monkeypatch, root, "check", ".", "--select", "OPT003", "--jobs", "1")
    assert findings(during.stdout) == []  # what the analysis read
    monkeypatch.setattr(cache_module.LintCache, "store", original_store)
    cached = run_cli(monkeypatch, root, "check", ".", "--select", "OPT003", "--jobs", "1")
    fresh = run_cli(monkeypatch, root, "check", ".", "--select", "OPT003", "--jobs", "1",
                    "--no-cache")
    assert findings(fresh.stdout) == ["train.py:7:35:"]
    assert findings(cached.stdout) == findings(fresh.stdout)
