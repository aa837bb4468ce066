"""A worker that dies as it starts (killed for memory while importing the parser), before or while
the chunks are sent, costs no file and no run."""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from optlint import pool
from optlint.config import Settings
from optlint.lint_types import LintOptions
from optlint.selection import Selection
from optlint.versions import LibraryVersions

FIXABLE = "import optax\n\noptimizer = optax.chain(optax.adam(1e-3), optax.clip(1.0))\n"


def test_a_worker_dead_as_it_starts_costs_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "_start_method", lambda: "fork")  # workers inherit the patches
    marker = tmp_path / "died-once"
    original_init = pool._init_worker

    def init_worker(options: LintOptions, parent: int, *plan: object) -> None:
        if not marker.exists():
            marker.write_text("")
            os.kill(os.getpid(), signal.SIGKILL)
        original_init(options, parent, *plan)  # type: ignore[arg-type]

    monkeypatch.setattr(pool, "_init_worker", init_worker)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    paths = [tmp_path / f"f{number}.py" for number in range(6)]
    for path in paths:
        path.write_text(FIXABLE)
    options = LintOptions(Selection.from_settings(Settings(project_root=tmp_path)),
                          LibraryVersions(), tmp_path)
    results = pool.check_paths(paths, options, jobs=2)
    assert marker.exists()  # a worker did die
    alone = pool.check_paths(paths, options, jobs=1)
    assert [(r.filename, r.errors, r.diagnostics) for r in results] == \
        [(r.filename, r.errors, r.diagnostics) for r in alone]
    assert [d.code for r in alone for d in r.diagnostics] == ["OPT008"] * 6
