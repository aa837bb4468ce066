"""What `--fix` does to the file on disk: it writes through a symbolic link, keeps the inode where
a new one would lose something (hard links, owner, extended attributes), and writes nothing when
the file changed since it was read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from optlint import engine
from reliability_helpers import FIXABLE, FIXED_LINE, error_lines, run_cli


def fix(monkeypatch: pytest.MonkeyPatch, folder: Path, *names: str):  # type: ignore[no-untyped-def]
    return run_cli(monkeypatch, folder, "check", "--fix", "--jobs", "1", *names)


def test_symlink_target_is_fixed_and_the_link_kept(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "real" / "train.py"
    target.parent.mkdir()
    target.write_text(FIXABLE)
    link = tmp_path / "link.py"
    link.symlink_to(target)
    run = fix(monkeypatch, tmp_path, "link.py")
    assert run.exit_code == 0, run.stderr
    assert link.is_symlink() and FIXED_LINE in target.read_text()


def test_hard_links_stay_one_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = tmp_path / "train.py"
    first.write_text(FIXABLE)
    second = tmp_path / "other_name.txt"
    os.link(first, second)
    inode = first.stat().st_ino
    run = fix(monkeypatch, tmp_path, "train.py")
    assert run.exit_code == 0, run.stderr
    assert first.stat().st_ino == inode and FIXED_LINE in second.read_text()


def test_plain_file_is_replaced_atomically_with_its_mode(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "train.py"
    path.write_text(FIXABLE)
    path.chmod(0o640)
    run = fix(monkeypatch, tmp_path, "train.py")
    assert run.exit_code == 0 and FIXED_LINE in path.read_text()
    assert path.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["train.py"]  # no temporary file left


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another owner")
def test_owner_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "train.py"
    path.write_text(FIXABLE)
    os.chown(path, 4321, 4321)
    run = fix(monkeypatch, tmp_path, "train.py")
    assert run.exit_code == 0 and FIXED_LINE in path.read_text()
    assert (path.stat().st_uid, path.stat().st_gid) == (4321, 4321)


def test_extended_attributes_are_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "train.py"
    path.write_text(FIXABLE)
    try:
        os.setxattr(path, "user.optlint", b"kept")
    except OSError:
        pytest.skip("this file system has no user extended attributes")
    run = fix(monkeypatch, tmp_path, "train.py")
    assert run.exit_code == 0 and FIXED_LINE in path.read_text()
    assert os.getxattr(path, "user.optlint") == b"kept"


@pytest.mark.parametrize("name", ["train.py", "nb.ipynb"])
def test_a_write_between_reading_and_fixing_is_not_lost(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        name: str) -> None:
    path = tmp_path / name
    if name.endswith(".ipynb"):
        import json

        path.write_text(json.dumps({"cells": [{"cell_type": "code", "source": FIXABLE,
                                               "metadata": {}, "outputs": []}],
                                    "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    else:
        path.write_text(FIXABLE)
    fix_text = engine.Linter.fix_text

    def fix_while_someone_saves(self: engine.Linter, text: str, filename: str):  # type: ignore[no-untyped-def]
        path.write_text("# saved by an editor meanwhile\n")
        return fix_text(self, text, filename)

    monkeypatch.setattr(engine.Linter, "fix_text", fix_while_someone_saves)
    run = fix(monkeypatch, tmp_path, name)
    assert path.read_text() == "# saved by an editor meanwhile\n"
    assert run.exit_code == 2
    assert error_lines(run) == [f"error: {name}: changed since it was read; fixes not written "
                                "(run again)"]


def test_user_code_writing_its_file_during_verify_is_not_lost(tmp_path: Path) -> None:
    from optlint.verify import gate
    from optlint.verify.session import RunSettings
    from reliability_helpers import linter

    path = tmp_path / "train.py"
    path.write_text(FIXABLE)

    def harness_that_writes(*args: object, **kwargs: object) -> list[object]:
        path.write_text("# written by the user's code under --verify\n")
        return []

    patch = pytest.MonkeyPatch()
    patch.setattr(gate, "verify_source", harness_that_writes)
    try:
        results = gate.fix_verified([path], linter(tmp_path, fix=True).options, RunSettings())
    finally:
        patch.undo()
    assert path.read_text() == "# written by the user's code under --verify\n"
    assert results[0].errors == [f"{path}: changed since it was read; fixes not written "
                                 "(run again)"]
