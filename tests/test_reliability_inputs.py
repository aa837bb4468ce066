"""Inputs that once took the whole run down or gave wrong answers. Each gives a clean run or one
`error:` line naming its file, the other files are still checked, and exit 2 means errors only."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from optlint import engine, pool
from optlint.config import Settings
from optlint.engine import LintOptions
from optlint.pool import check_paths
from optlint.selection import Selection
from optlint.versions import LibraryVersions
from reliability_helpers import FIXABLE, error_lines, run_cli

HEADER = "import optax\n"
DEEP = {  # valid Python nested ~1,000 deep: RecursionError in the index walk before
    "concat": "x = (" + " ".join(['"a"'] * 1000) + ")\n",
    "elif": "if a:\n    pass\n" + "elif a:\n    pass\n" * 1000,
    "plus": "x = " + " + ".join(["a"] * 1000) + "\n",
    "attribute": "x = a" + ".b" * 1000 + "\n",
    "not": "x = " + "not " * 1000 + "1\n",
    "lambda": "x = " + "lambda: " * 1000 + "1\n",
}


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.mark.parametrize("kind", sorted(DEEP))
def test_deeply_nested_valid_code_is_analysed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              kind: str) -> None:
    write(tmp_path, "deep.py", HEADER + DEEP[kind])
    write(tmp_path, "train.py", FIXABLE)
    run = run_cli(monkeypatch, tmp_path, "check", "--jobs", "1", ".")
    assert error_lines(run) == []
    assert run.exit_code == 1 and "train.py:7:" in run.stdout, run.stderr


def test_deeper_than_python_accepts_is_one_error_line(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "deep.py", HEADER + "x = " + "-" * 20_000 + "1\n")
    write(tmp_path, "train.py", FIXABLE)
    run = run_cli(monkeypatch, tmp_path, "check", "--jobs", "1", ".")
    assert error_lines(run) == ["error: deep.py: too deeply nested to analyse (deeper than "
                                "Python's own parser accepts)"]
    assert run.exit_code == 2 and "train.py:7:" in run.stdout


def test_stdin_fix_of_a_deep_file_echoes_it(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    data = (HEADER + "x = " + "-" * 20_000 + "1\n").encode()
    run = run_cli(monkeypatch, tmp_path, "check", "--fix", "-", "--stdin-filename", "d.py",
                  stdin=data)
    assert run.stdout_bytes == data
    assert run.exit_code == 2 and len(error_lines(run)) == 1


def test_bracket_nesting_that_crashes_libcst_does_not_crash_optlint(tmp_path: Path) -> None:
    # libcst's native parser overflows the C stack here (exit 139): a real process is needed.
    write(tmp_path, "brackets.py", HEADER + "x = " + "(" * 2000 + ")" * 2000 + "\n")
    write(tmp_path, "train.py", FIXABLE)
    for jobs in ("1", "2"):
        done = subprocess.run([sys.executable, "-m", "optlint", "check", "--jobs", jobs,
                               "brackets.py", "train.py"], cwd=tmp_path, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 1, done.stderr
        assert "brackets.py:2:" in done.stdout and "too many nested parentheses" in done.stdout
        assert "train.py:7:" in done.stdout


def test_a_dead_worker_costs_one_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Workers are forked, so they inherit this patch: checking crash.py ends its process.
    monkeypatch.setattr(pool, "_start_method", lambda: "fork")
    original = engine.Linter.check_path

    def check_path(self: engine.Linter, path: Path) -> engine.FileResult:
        if path.name == "crash.py":
            os.kill(os.getpid(), signal.SIGKILL)  # as the kernel does when memory runs out
        return original(self, path)

    monkeypatch.setattr(engine.Linter, "check_path", check_path)
    paths = [write(tmp_path, f"f{number}.py", FIXABLE) for number in range(6)]
    paths.insert(3, write(tmp_path, "crash.py", FIXABLE))
    options = LintOptions(Selection.from_settings(Settings(project_root=tmp_path)),
                          LibraryVersions(), tmp_path)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    results = check_paths(paths, options, jobs=2)
    assert [r.filename for r in results] == [str(p) for p in paths]
    crashed = results.pop(3)
    assert crashed.errors and "the process checking it died" in crashed.errors[0]
    assert all(len(r.diagnostics) == 1 and not r.errors for r in results)


@pytest.mark.parametrize(("name", "text"), [
    ("annotated_name.py", HEADER + "(x): int = 1\n"),
    ("concat5000.py", HEADER + "x = (" + " ".join(['"a"'] * 5000) + ")\n"),
])
def test_valid_code_libcst_rejects_is_not_a_syntax_error(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         name: str, text: str) -> None:
    write(tmp_path, name, text)
    run = run_cli(monkeypatch, tmp_path, "check", name)
    assert "OPT000" not in run.stdout
    assert error_lines(run) == [f"error: {name}: cannot analyse: libcst's parser rejects this "
                                f"valid Python at 2:1"]


def test_nul_byte_is_a_syntax_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "nul.py", HEADER + "x = '\0'\n")
    run = run_cli(monkeypatch, tmp_path, "check", "nul.py")
    assert run.stdout.startswith("nul.py:2:6: OPT000 SyntaxError:")


def test_select_opt000_alone_reports_syntax_errors(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "broken.py", "def f(:\n    pass\n")
    run = run_cli(monkeypatch, tmp_path, "check", "--select", "OPT000", "broken.py")
    assert run.exit_code == 1 and run.stdout.startswith("broken.py:1:7: OPT000")


def test_file_over_max_file_size_is_one_error_line(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "pyproject.toml", '[tool.optlint]\nmax-file-size = "1KB"\n')
    write(tmp_path, "big.py", FIXABLE + "# padding\n" * 200)
    write(tmp_path, "train.py", FIXABLE)
    run = run_cli(monkeypatch, tmp_path, "check", "--jobs", "1", ".")
    assert error_lines(run) == ["error: big.py: not checked: 2,168 bytes, over max-file-size "
                                "(1,000); raise it in [tool.optlint] to check it"]
    assert run.exit_code == 2 and "train.py:7:" in run.stdout
    write(tmp_path, "pyproject.toml", "[tool.optlint]\nmax-file-size = 1_000_000\n")
    assert run_cli(monkeypatch, tmp_path, "check", "--jobs", "1", ".").exit_code == 1


def test_uncaught_exception_exits_two_even_with_exit_zero(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("optlint.runner.check_paths", broken)
    write(tmp_path, "train.py", FIXABLE)
    run = run_cli(monkeypatch, tmp_path, "check", "--exit-zero", ".")
    assert run.exit_code == 2
    assert error_lines(run) == ["error: internal error: RuntimeError('boom') (--verbose shows "
                                "where)"]


def test_python_warnings_about_checked_code_are_not_shown(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # CPython's parser, asked first, warns about `"\d"`; those warnings are not optlint's output.
    write(tmp_path, "train.py", FIXABLE + 'pattern = "\\d+"\nvalue = 1if True else 2\n')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        run = run_cli(monkeypatch, tmp_path, "check", "train.py")
    assert [str(w.message) for w in caught if w.category is not RuntimeWarning] == []
    assert run.exit_code == 1 and "Warning" not in run.stderr
