"""Removing an unused `# noqa` code (OPT100's safe fix) only ever edits the comment: text after
the directive in the same comment stays a comment, and the program computes what it did."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_optlint

# Each line's comment goes on after the directive; removing the directive whole would make
# `- 1`, `* 0` and `+ 1` code and `: kept ...` a syntax error.
PROGRAM = """steps = 10  # noqa: OPT003 - 1
scale = 2  # noqa: OPT008 * 0
reason = 3  # noqa: OPT003: kept for the old trainer
both = 4  # noqa: OPT003, OPT008 + 1
plain = 5  # noqa: OPT003
print(steps, scale, reason, both, plain)
"""


def run(path: Path) -> str:
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          check=True).stdout


# Without a trigger word the file is not parsed (its noqa codes come from a comment scan); with
# one it is parsed and linted: both paths make the same fix.
@pytest.mark.parametrize("header", ["", "# optax\n"])
def test_fix_keeps_what_follows_the_directive_a_comment(tmp_path: Path, header: str) -> None:
    path = tmp_path / "a.py"
    path.write_text(header + PROGRAM)
    before = run(path)
    result = run_optlint("check", "--no-cache", "--fix", str(path), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "5 fixed" in result.stdout + result.stderr
    assert run(path) == before == "10 2 3 4 5\n"
    assert path.read_text() == header + (
        "steps = 10  # - 1\nscale = 2  # * 0\nreason = 3  #: kept for the old trainer\n"
        "both = 4  # + 1\nplain = 5\nprint(steps, scale, reason, both, plain)\n")
    # Nothing is left to fix.
    again = run_optlint("check", "--no-cache", str(path), cwd=tmp_path)
    assert again.returncode == 0, again.stdout


def test_a_directive_inside_a_longer_comment_is_removed_with_its_spaces(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text("x = 1  # type: int  # noqa: OPT003 - 1\nprint(x)\n")
    result = run_optlint("check", "--no-cache", "--fix", str(path), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert path.read_text() == "x = 1  # type: int - 1\nprint(x)\n"
    assert run(path) == "1\n"


def test_a_noqa_code_is_a_prefix_as_in_flake8(tmp_path: Path) -> None:
    """`# noqa: OPT00` hides OPT003 in flake8; optlint check agrees and does not call it unused."""
    path = tmp_path / "p.py"
    path.write_text("import equinox as eqx\nimport jax\nimport optax\n\n"
                    "model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))\n"
                    "opt_state = optax.adam(1e-3).init(model)  # noqa: OPT00\n"
                    "x = 1  # noqa: OPT00\n")
    result = run_optlint("check", "--no-cache", "p.py", cwd=tmp_path)
    assert result.stdout.splitlines() == [
        "p.py:7:8: OPT100 [*] unused `noqa` directive (unused: OPT00)"]
    flake8 = subprocess.run([sys.executable, "-m", "flake8", "--select", "OPT", "p.py"],
                            cwd=tmp_path, capture_output=True, text=True)
    assert [line.split(" ")[0] for line in flake8.stdout.splitlines()] == ["p.py:7:8:"]
