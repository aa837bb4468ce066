"""Discovery, configuration, lock files, notebooks and encodings: what once gave a traceback, a
hang or a silent wrong answer now gives a clean run or one `error:` line, and the run goes on."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from optlint.versions import project_pins
from reliability_helpers import FIXABLE, error_lines, run_cli


def write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def test_fifo_in_a_folder_is_skipped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    os.mkfifo(tmp_path / "pipe.py")  # reading it waited forever
    write(tmp_path, "train.py", FIXABLE)
    run = run_cli(monkeypatch, tmp_path, "check", "--jobs", "1", ".")
    assert run.exit_code == 1 and error_lines(run) == []


def test_fifo_named_on_the_command_line_is_an_error(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    os.mkfifo(tmp_path / "pipe.py")  # gave "All checks passed!"
    write(tmp_path, "train.py", FIXABLE)
    run = run_cli(monkeypatch, tmp_path, "check", "--jobs", "1", "pipe.py", "train.py")
    assert error_lines(run) == ["error: pipe.py: cannot read: not a regular file"]
    assert run.exit_code == 2 and "train.py:7:" in run.stdout


def test_unreadable_folder_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "locked", "hidden.py", FIXABLE)
    write(tmp_path, "train.py", FIXABLE)
    scandir = os.scandir

    def refusing(path: str) -> object:  # as chmod 0 does, even for root
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied", path)
        return scandir(path)

    monkeypatch.setattr(os, "scandir", refusing)
    run = run_cli(monkeypatch, tmp_path, "check", "--jobs", "1", ".")
    assert run.exit_code == 2 and "train.py:7:" in run.stdout
    assert error_lines(run) == ["error: ./locked: cannot read folder: Permission denied"]


@pytest.mark.parametrize(("pyproject", "message"), [
    (b'tool = "optlint"\n', "'tool' must be a table"),
    (b"tool = 5\n", "'tool' must be a table"),
    (b"[tool.optlint]\nselect = ['OPT']\n# caf\xe9\n", "not UTF-8"),
    (b'[tool.optlint]\nexclude = ["!"]\n', "'exclude' has an invalid pattern '!'"),
    (b'[tool.optlint]\nmax-file-size = "big"\n', "'max-file-size' must be a size"),
    (b'[tool.optlint]\noptax-version = "garbage"\n', "'optax-version' is not a version"),
])
def test_bad_configuration_is_one_error_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             pyproject: bytes, message: str) -> None:
    write(tmp_path, "pyproject.toml", pyproject)
    write(tmp_path, "train.py", FIXABLE)
    run = run_cli(monkeypatch, tmp_path, "check", ".")
    lines = error_lines(run)
    assert run.exit_code == 2 and len(lines) == 1 and message in lines[0], run.stderr


@pytest.mark.parametrize("line", ["!", "\\", "a\\"])
def test_gitignore_lines_git_accepts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     line: str) -> None:
    write(tmp_path, ".gitignore", f"{line}\nignored.py\n")
    write(tmp_path, "ignored.py", FIXABLE)
    write(tmp_path, "train.py", FIXABLE)
    run = run_cli(monkeypatch, tmp_path, "check", "--jobs", "1", ".")
    assert run.exit_code == 1 and error_lines(run) == []
    assert "train.py:7:" in run.stdout and "ignored.py" not in run.stdout


@pytest.mark.parametrize(("name", "content"), [
    ("pyproject.toml", b"project = 5\n"),
    ("pyproject.toml", b"[project]\ndependencies = 5\n"),
    ("uv.lock", b"package = 5\n"),
    ("uv.lock", b'[[package]]\nname = "optax"\nversion = "0.2.3"\n# caf\xe9\n'),
    ("requirements.txt", b"optax===garbage!!\n"),
])
def test_unusable_pins_are_no_pins(tmp_path: Path, name: str, content: bytes) -> None:
    write(tmp_path, name, content)
    assert project_pins(tmp_path) == {}


@pytest.mark.parametrize("name", ["uv.lock", "requirements-dev.txt", "pyproject.toml"])
def test_fifo_pin_file_is_no_pin(tmp_path: Path, name: str) -> None:
    os.mkfifo(tmp_path / name)  # reading it waited forever
    assert project_pins(tmp_path) == {}


def test_bad_command_line_version_and_lonely_stdin_filename(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "train.py", FIXABLE)
    run = run_cli(monkeypatch, tmp_path, "check", "--optax-version", "garbage", ".")
    assert run.exit_code == 2
    assert error_lines(run) == ["error: command line: '--optax-version' is not a version: "
                                "'garbage'"]
    run = run_cli(monkeypatch, tmp_path, "check", "--stdin-filename", "x.py", ".")
    assert run.exit_code == 2 and "--stdin-filename" in error_lines(run)[0]
    run = run_cli(monkeypatch, tmp_path, "check", "--stdin-filename", "x.py",
                  stdin=FIXABLE.encode())
    assert run.exit_code == 1 and run.stdout.startswith("x.py:7:")


def test_one_file_named_three_ways_is_reported_once(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = write(tmp_path / "d", "f.py", FIXABLE)
    run = run_cli(monkeypatch, tmp_path / "d", "check", "--jobs", "1", "f.py", str(path),
                  "../d/f.py")
    assert run.stdout.count(":7:") == 1


def test_jobs_beyond_the_cores_are_not_started(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import concurrent.futures as futures

    import optlint.pool as pool

    started: list[int] = []

    class Pool(futures.ProcessPoolExecutor):
        def __init__(self, workers: int, **kwargs: object) -> None:
            started.append(workers)
            super().__init__(workers, **kwargs)  # type: ignore[arg-type]

    # optlint.pool imports the executor when it starts one (a warm run starts none).
    monkeypatch.setattr(futures, "ProcessPoolExecutor", Pool)
    monkeypatch.setattr(pool.os, "cpu_count", lambda: 2)
    for number in range(70):  # enough files for 32 workers
        write(tmp_path, f"f{number}.py", "import optax\n")
    run = run_cli(monkeypatch, tmp_path, "check", "--jobs", "32", ".")
    # A pool of one worker per shard (optlint/pool_shards.py): two workers in all.
    assert run.exit_code == 0 and sum(started) == 2


NOTEBOOK = {"cells": [{"cell_type": "code", "source": FIXABLE.splitlines(keepends=True),
                       "metadata": {}, "outputs": [], "execution_count": None}],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def notebook_with(**changes: object) -> bytes:
    content = json.loads(json.dumps(NOTEBOOK))
    for key, value in changes.items():
        if key == "source":
            content["cells"][0]["source"] = value
        else:
            content["metadata"][key] = value
    return json.dumps(content).encode()


@pytest.mark.parametrize(("data", "reason"), [
    (json.dumps({**NOTEBOOK, "metadata": "x"}).encode(), None),
    (notebook_with(language_info="python"), None),
    (notebook_with(kernelspec=[1]), None),
    (notebook_with(source=[1, 2]), "cell 1's source is not text"),
    (b"[" * 100_000 + b"]" * 100_000, "not a valid notebook"),
    (b'{"cells": [], "n": ' + b"1" * 5000 + b"}", "not a valid notebook"),
])
def test_malformed_notebooks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, data: bytes,
                             reason: str | None) -> None:
    write(tmp_path, "nb.ipynb", data)
    write(tmp_path, "train.py", FIXABLE)
    run = run_cli(monkeypatch, tmp_path, "check", "--jobs", "1", ".")
    assert "train.py:7:" in run.stdout
    if reason is None:  # metadata that says nothing about the language: checked as Python
        assert error_lines(run) == [] and "nb.ipynb:cell 1:7:" in run.stdout, run.stderr
    else:
        lines = error_lines(run)
        assert len(lines) == 1 and lines[0].startswith("error: nb.ipynb:") and reason in lines[0]
        stdin = run_cli(monkeypatch, tmp_path, "check", "--fix", "-", "--stdin-filename",
                        "x.ipynb", stdin=data)
        assert stdin.exit_code == 2 and stdin.stdout_bytes == data


@pytest.mark.parametrize("encoding", ["undefined", "punycode"])
def test_unusable_coding_cookie_is_one_error_line(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  encoding: str) -> None:
    write(tmp_path, "odd.py", f"# -*- coding: {encoding} -*-\n" + FIXABLE)
    write(tmp_path, "train.py", FIXABLE)
    run = run_cli(monkeypatch, tmp_path, "check", "--jobs", "1", ".")
    lines = error_lines(run)
    assert len(lines) == 1 and lines[0].startswith("error: odd.py: cannot decode:")
    assert run.exit_code == 2 and "train.py:7:" in run.stdout


def test_fifo_in_the_project_is_not_read_by_the_analysis(tmp_path: Path) -> None:
    from optlint.analysis.project import ProjectIndex

    write(tmp_path, "train.py", FIXABLE)
    os.mkfifo(tmp_path / "pipe.py")  # the call-site search read every file: it waited forever
    sources = ProjectIndex(tmp_path)._project_sources()
    assert sources is not None and set(sources) == {(tmp_path / "train.py").resolve()}


def test_configuration_errors_name_the_file_and_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from conftest import run_optlint_in_process

    (tmp_path / "a.py").write_text("import optax\n")
    cases = {
        '[project]\nname = "x"\n\n[tool.optlint]\nselect = ["OPT"]\nignore = ["OPT999"]\n':
            "error: pyproject.toml:6: ignore: unknown rule code or prefix 'OPT999'",
        "[tool.optlint]\n\npreview = 3\n":
            "error: pyproject.toml:3: 'preview' must be true or false, got 3",
        '[tool.optlint]\n[tool.optlint.per-file-ignores]\n"a.py" = ["XX1"]\n':
            "error: pyproject.toml:2: per-file-ignores 'a.py': unknown rule code or prefix 'XX1'",
    }
    for config, expected in cases.items():
        (tmp_path / "pyproject.toml").write_text(config)
        done = run_optlint_in_process("check", ".", cwd=tmp_path)
        assert done.returncode == 2 and done.stderr.strip() == expected
