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


def test_texts_are_keyed_by_the_files_resolved_paths(tmp_path: Path) -> None:
    """As `Path.resolve()` names them, through a linked root and a linked file (one system call
    per file rather than one per path component: only the file itself can be a link, the walk
    entering no linked folder)."""
    tmp_path = tmp_path.resolve()
    real = tmp_path / "real"
    real.mkdir()
    _project(real, 2)
    (real / "outside.py").symlink_to(tmp_path / "elsewhere.py")
    (tmp_path / "elsewhere.py").write_text("value = 2\n")
    (real / "linked_folder").symlink_to(real / "pkg1")  # not entered: its files are in pkg1
    (tmp_path / "root").symlink_to(real)
    texts = ProjectFiles(tmp_path / "root", _reading([])).project_texts()
    assert texts is not None
    assert set(texts) == {real / "pkg0" / "m0.py", real / "pkg1" / "m1.py",
                          tmp_path / "elsewhere.py"}
    assert all(path == path.resolve() for path in texts)
