"""Every project file's text (where a function's callers are looked for) is read only when the
project is small enough for callers to be looked for: a one-file run in a large folder without a
project of its own reads no file for that."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from optlint.analysis import project_files
from optlint.analysis.project_files import ProjectFiles


def _project(root: Path, files: int) -> None:
    for number in range(files):
        folder = root / f"pkg{number % 2}"
        folder.mkdir(exist_ok=True)
        (folder / f"m{number}.py").write_text(f"value = {number}\n")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "skipped.py").write_text("skipped = 1\n")


def _reading(read: list[Path]) -> Callable[[Path], bytes]:
    def record(path: Path) -> bytes:
        read.append(path)
        return path.read_bytes()
    return record


def test_too_many_files_read_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(project_files, "MAX_CALLER_FILES", 3)
    _project(tmp_path, 5)
    read: list[Path] = []
    files = ProjectFiles(tmp_path, _reading(read))
    assert files.project_texts() is None
    assert files.project_paths() is None
    assert read == []


def test_a_small_project_read_whole(tmp_path: Path) -> None:
    _project(tmp_path, 5)
    read: list[Path] = []
    files = ProjectFiles(tmp_path, _reading(read))
    texts = files.project_texts()
    assert texts is not None
    assert sorted(texts) == sorted(read)
    assert {path.name: text for path, text in texts.items()} == {
        f"m{number}.py": f"value = {number}\n" for number in range(5)}
    assert files.project_paths() == sorted(str(path) for path in texts)
    assert files.project_texts() is texts  # read once
    assert len(read) == 5
