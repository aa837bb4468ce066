"""Discovery through symbolic links: each file once, by its first name, with its resolved path
worked out without resolving every file (only links are resolved)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from optlint.config import Settings
from optlint.discovery import discover


def test_links_are_found_once_and_resolved_to_their_targets(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "pkg" / "model.py").write_text("x = 1\n")
    outside = tmp_path / "outside.py"
    outside.write_text("y = 2\n")
    (project / "linked_outside.py").symlink_to(outside)
    (project / "zz_same_model.py").symlink_to(project / "pkg" / "model.py")
    (project / "broken.py").symlink_to(tmp_path / "missing.py")
    os.mkfifo(project / "pipe.py")
    resolved: dict[Path, Path] = {}
    monkeypatch.chdir(project)
    found = discover([Path(".")], Settings(project_root=project), resolved=resolved)
    # The walk sees a folder's files before its subfolders: model.py is first named by its link.
    assert found == [Path("broken.py"), Path("linked_outside.py"), Path("zz_same_model.py")]
    assert resolved == {path: path.resolve() for path in found}
    assert resolved[Path("linked_outside.py")] == outside.resolve()
