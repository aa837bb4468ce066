"""The paused garbage collector runs when the process's peak memory has grown, not every so many
files: a full collection walks every object alive (the trees kept for lookups), which on a real
repository cost 6% of a cold run and freed nothing."""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path

import pytest

from optlint import pool
from optlint.config import Settings
from optlint.lint_types import LintOptions
from optlint.selection import Selection
from optlint.versions import LibraryVersions

MIB = 1024 * 1024


def _collections(monkeypatch: pytest.MonkeyPatch, files: int,
                 peak: Callable[[int], int | None]) -> list[int]:
    """The files before which a collection ran, `peak(files checked so far)` the peak memory."""
    ran: list[int] = []
    collector: pool._Collector | None = None
    monkeypatch.setattr(pool, "_peak_bytes",
                        lambda: peak(collector.files if collector is not None else 0))
    collector = pool._Collector()
    monkeypatch.setattr(pool.gc, "collect", lambda: ran.append(collector.files))
    for _ in range(files):
        collector.before_file()
    return ran


def test_no_collection_while_memory_stays_flat(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _collections(monkeypatch, 500, lambda files: 100 * MIB + files * 100_000) == []


def test_a_collection_once_memory_grew_past_the_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # the third file starts with the peak grown by the bound; it stays there afterwards
    def peak(files: int) -> int:
        return 100 * MIB + (pool._COLLECT_AFTER_BYTES if files >= 3 else 0)

    assert _collections(monkeypatch, 10, peak) == [3]


def test_without_a_memory_reading_every_so_many_files(monkeypatch: pytest.MonkeyPatch) -> None:
    every = pool._COLLECT_EVERY
    assert _collections(monkeypatch, 2 * every + 3, lambda files: None) == [every, 2 * every]


def test_a_run_of_many_files_checks_them_all_with_the_collector_paused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the real loop: every file checked, the collector restored afterwards."""
    monkeypatch.setattr(pool, "_COLLECT_AFTER_BYTES", 0)  # a collection before every file
    paths = [tmp_path / f"f{number}.py" for number in range(4)]
    for path in paths:
        path.write_text("import optax\n\noptimizer = optax.chain(optax.adam(1e-3), "
                        "optax.clip(1.0))\n")
    options = LintOptions(Selection.from_settings(Settings(project_root=tmp_path)),
                          LibraryVersions(), tmp_path)
    was_enabled = gc.isenabled()
    results = pool.check_paths(paths, options, jobs=1)
    assert [d.code for result in results for d in result.diagnostics] == ["OPT008"] * 4
    assert gc.isenabled() == was_enabled
