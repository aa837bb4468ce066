"""`optlint check` with plain arguments is parsed without click (optlint/check_command.py): the
parse must give what click's gives for the same arguments, and leave to click every argument
list it does not take whole (click then says what is wrong, as before)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from optlint.check_command import OPTIONS, check_request, parse_plain
from optlint.cli import check

PLAIN = [
    [],
    ["train.py"],
    ["--no-cache", "--exit-zero", "-q", "a.py", "b.py"],
    ["-n", "-e", "-q", "-v", "."],
    ["--select", "OPT020,opt003", "--ignore=OPT001", "--extend-select", " OPT002 ,", "."],
    ["--select", ""],
    ["--select", "OPT001", "--select", "OPT002"],  # the last one, as click keeps it
    ["--per-file-ignores", "tests/*:OPT020", "--per-file-ignores=a.py:OPT001", "."],
    ["--extend-exclude", "a/*, b", "--unfixable", "OPT003"],
    ["--preview"], ["--no-preview"], ["--preview", "--no-preview"],
    ["--jobs", "2"], ["-j", "3"], ["--jobs=04"],
    ["--output-format", "json"], ["--output-format=sarif"], ["--color", "never"],
    ["-o", "report.txt", "--config", "pyproject.toml"],
    ["--", "-named-like-an-option.py", "--fix"],
    ["-"], ["--stdin-filename", "x.py", "-"],
    ["--optax-version", "0.2.3", "--equinox-version", "0.11", "--jax-version=0.4.30"],
    ["a.py", "--fix", "b.py"],
    ["--fix-only", "--diff", "--unsafe-fixes", "--show-fixes", "--exit-non-zero-on-fix",
     "--isolated", "--show-files", "--statistics", "--add-noqa", "--show-settings",
     "--force-exclude", "--verbose", "--verify", "--fix"],
]

# Each left to click: help, unknown or misspelt options, combined or attached short options,
# values click rejects (or might), a missing value, a value that looks like an option.
LEFT_TO_CLICK = [
    ["--help"], ["-h"], ["-qe"], ["-j2"], ["-o=x"], ["--nocache"], ["--fi"], ["--jobs", "0"],
    ["--jobs", "x"], ["--jobs", " 2"], ["--color", "blue"], ["--output-format", "JSON"],
    ["--fix=1"], ["--select"], ["--select", "-q"], ["--output-file", "."], ["--config", "."],
]


@pytest.mark.parametrize("args", PLAIN, ids=" ".join)
def test_the_plain_parse_gives_what_click_gives(args: list[str]) -> None:
    parsed = parse_plain(args)
    assert parsed is not None
    paths, values = parsed
    by_click = check.make_context("check", list(args)).params
    assert paths == by_click.pop("paths")
    assert values == by_click
    assert check_request(paths, values) == check_request(paths, by_click)


@pytest.mark.parametrize("args", LEFT_TO_CLICK, ids=" ".join)
def test_what_the_plain_parse_does_not_take_is_left_to_click(args: list[str]) -> None:
    assert parse_plain(args) is None


def test_every_option_of_the_click_command_is_in_the_table() -> None:
    declared = {name for param in check.params for name in (*param.opts, *param.secondary_opts)}
    tabled = {name for option in OPTIONS for name in option.names}
    tabled |= {option.negative for option in OPTIONS if option.negative}
    assert declared - {"paths"} == tabled


def test_a_plain_check_never_imports_click(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text("import optax\nopt = optax.adam(1e-3)\n")
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "optlint", "check",
                           "--no-cache", "-q", "train.py"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr[-800:]
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines()
                if line.startswith("import time:")}
    assert "optlint.runner" in imported and "click" not in imported
