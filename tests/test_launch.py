"""The `optlint` program's own process: a `check` ends without the interpreter's teardown, and still
writes all its output and exits with the status the command chose."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from optlint.launch import _exit_status

TRAIN = textwrap.dedent("""\
    import equinox as eqx
    import jax
    import optax

    model = eqx.nn.MLP(2, 2, 8, 2, activation=jax.nn.relu, key=jax.random.PRNGKey(0))
    optimizer = optax.adam(1e-3)
    state = optimizer.init(model)
""")
# Runs the program as `python -m optlint` does, with a handler that only a normal exit runs.
PROGRAM = textwrap.dedent("""
    import atexit, sys
    atexit.register(lambda: print("TEARDOWN", flush=True))
    from optlint.launch import run
    sys.argv = ["optlint", *sys.argv[1:]]
    run()
""")


def _program(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", PROGRAM, *args], cwd=tmp_path, text=True,
                          capture_output=True, timeout=300)


def test_a_check_skips_the_teardown_and_writes_every_finding(tmp_path: Path) -> None:
    for number in range(30):  # more output than one write: the buffer must be flushed
        (tmp_path / f"train_{number}.py").write_text(TRAIN)
    done = _program(tmp_path, "check", "--no-cache", "--jobs", "1", ".")
    assert done.returncode == 1, done.stderr
    assert "TEARDOWN" not in done.stdout
    assert len([line for line in done.stdout.splitlines() if " OPT003 " in line]) == 30
    assert "Found 30 problems" in done.stderr, done.stderr  # the summary, written last


@pytest.mark.parametrize(("args", "status"), [
    (("check", "--no-cache", "--exit-zero", "train.py"), 0),
    (("check", "--no-such-option"), 2),  # click's usage error
    (("check", "--no-cache", "missing.py"), 2),
])
def test_a_check_exits_with_the_commands_status(tmp_path: Path, args: tuple[str, ...],
                                                  status: int) -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    done = _program(tmp_path, *args)
    assert done.returncode == status, done.stdout + done.stderr
    assert "TEARDOWN" not in done.stdout


def test_other_commands_end_the_ordinary_way(tmp_path: Path) -> None:
    done = _program(tmp_path, "rule", "OPT003")
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith("TEARDOWN")


def test_the_exit_status_is_what_sys_exit_gives() -> None:
    assert _exit_status(None) == 0
    assert _exit_status(3) == 3
    assert _exit_status("a message") == 1


def test_version_is_the_line_click_prints_without_importing_click(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from optlint.cli import main

    probe = PROGRAM + "\nimport sys\nprint('click' in sys.modules)\n"
    done = subprocess.run([sys.executable, "-c", probe, "--version"], cwd=tmp_path, text=True,
                          capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    shown, click_imported, _ = done.stdout.splitlines(keepends=True)  # then the teardown's line
    assert shown == CliRunner().invoke(main, ["--version"]).output
    assert click_imported == "False\n"
