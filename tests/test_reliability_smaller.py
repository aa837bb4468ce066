"""Round two's smaller items: file names that are not UTF-8, odd cache entries, read-only files,
empty selections and keys, a check run from the file system's root."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from reliability_helpers import FIXABLE, error_lines, run_cli


def non_utf8_name(folder: Path) -> Path:
    path = Path(os.fsdecode(os.fsencode(str(folder)) + b"/caf\xe9.py"))
    try:
        path.write_text(FIXABLE)
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system does not take a file name that is not UTF-8")
    return path


@pytest.mark.parametrize("options", [[], ["--output-format", "gitlab", "--no-cache"]],
                         ids=["cached", "gitlab"])
def test_a_file_name_that_is_not_utf8(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      options: list[str]) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    non_utf8_name(tmp_path)
    (tmp_path / "train.py").write_text(FIXABLE)
    for _ in range(2):  # the second run reads the cache
        run = run_cli(monkeypatch, tmp_path, "check", ".", "--jobs", "1", *options)
        assert run.exit_code == 1 and not error_lines(run), run.stderr
    if options:
        assert len(json.loads(run.stdout)) == 2


def replace_entries(root: Path, make: str) -> int:
    entries = list((root / ".optlint_cache").rglob("*.json"))
    for entry in entries:
        entry.unlink()
        if make == "fifo":
            os.mkfifo(entry)
        else:
            entry.write_text("[" * 200_000 + "]" * 200_000)
    return len(entries)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("make", ["nested", "fifo"])
def test_odd_cache_entries_are_analysed_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              make: str) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    (tmp_path / "train.py").write_text(FIXABLE)
    first = run_cli(monkeypatch, tmp_path, "check", ".", "--jobs", "1")
    assert replace_entries(tmp_path, make) == 1
    again = run_cli(monkeypatch, tmp_path, "check", ".", "--jobs", "1")
    assert (again.exit_code, again.stdout) == (first.exit_code, first.stdout) == (1, first.stdout)


def test_fix_leaves_a_read_only_file_alone(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "train.py"
    path.write_text(FIXABLE)
    path.chmod(0o444)
    try:
        run = run_cli(monkeypatch, tmp_path, "check", "--fix", "--jobs", "1", "train.py")
        assert path.read_text() == FIXABLE and oct(path.stat().st_mode & 0o777) == "0o444"
        assert run.exit_code == 2 and "read-only" in run.stderr
    finally:
        path.chmod(0o644)


def test_an_empty_per_file_ignores_key_is_a_configuration_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.optlint.per-file-ignores]\n"" = ["OPT003"]\n"/" = ["OPT001"]\n')
    (tmp_path / "train.py").write_text(FIXABLE)
    run = run_cli(monkeypatch, tmp_path, "check", ".", "--jobs", "1", "--no-cache")
    assert run.exit_code == 2 and len(error_lines(run)) == 1
    assert "per-file-ignores" in run.stderr and "empty pattern" in run.stderr
    (tmp_path / "pyproject.toml").write_text('[tool.optlint.per-file-ignores]\n"/" = ["OPT001"]\n')
    run = run_cli(monkeypatch, tmp_path, "check", ".", "--jobs", "1", "--no-cache")
    assert run.exit_code == 1 and not error_lines(run), run.stderr


@pytest.mark.parametrize("value", ["", ","])
def test_select_nothing_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         value: str) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    (tmp_path / "train.py").write_text(FIXABLE)
    run = run_cli(monkeypatch, tmp_path, "check", ".", "--select", value)
    assert run.exit_code == 2 and "--select" in run.stderr


def test_run_from_the_root_reads_only_the_project(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from optlint.analysis import project

    (tmp_path / "helpers.py").write_text(
        "import optax\n\n\ndef init_state(model):\n    return optax.adam(1e-3).init(model)\n")
    read: list[Path] = []
    original = project.read_bytes

    def counted(path: Path) -> bytes:
        read.append(Path(path))
        return original(path)

    monkeypatch.setattr(project, "read_bytes", counted)
    run = run_cli(monkeypatch, Path("/"), "check", "--no-cache", "--jobs", "1",
                  str(tmp_path / "helpers.py"))
    assert run.exit_code == 0, run.stderr
    outside = [path for path in read if tmp_path not in path.parents]
    assert not outside, f"{len(outside)} files read outside the project, e.g. {outside[:3]}"
