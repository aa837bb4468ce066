"""Round two's smaller items: file names that are not UTF-8, odd cache entries, read-only files,
empty selections and keys, a check run from the file system's root."""

from __future__ import annotations

import json
import os
import sys
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
