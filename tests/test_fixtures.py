"""Every fixture under tests/fixtures/OPTnnn/ through the real CLI.

A case is `name.py` (files starting with `_` are helpers a case may import, e.g. a models file).
`name.txt` holds the expected findings of that rule, one `line:col: CODE message` per line (with
` [*]` before the message when there is a fix), each followed by an indented `help: <fix title>`
line when it has a fix title (empty: none). `name.fixed.py`, when present, is the expected result of `--fix --unsafe-fixes`, which must
itself give no finding of the rule. A first line `# optlint-args: ...` adds CLI arguments.
"""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest

from conftest import FIXTURES, run_optlint_in_process as run_optlint


def _cases() -> list[Path]:
    return sorted(path for path in FIXTURES.glob("OPT*/**/*.py")
                  if not path.name.startswith("_") and not path.name.endswith(".fixed.py"))


def _extra_args(case: Path) -> list[str]:
    first = case.read_text(encoding="utf-8").splitlines()[0] if case.read_text() else ""
    prefix = "# optlint-args:"
    return shlex.split(first[len(prefix):]) if first.startswith(prefix) else []


def _code_of(case: Path) -> str:
    return case.relative_to(FIXTURES).parts[0]


def _copy_case(case: Path, tmp_path: Path) -> Path:
    """The case and its helper files, in a fresh folder (the fixer writes there)."""
    target = tmp_path / "case"
    shutil.copytree(case.parent, target, ignore=shutil.ignore_patterns("*.txt", "*.fixed.py"))
    return target / case.name


def _findings(stdout: str, name: str) -> list[str]:
    """The findings in `name` of a JSON report, as the expected-output files write them."""
    lines = []
    for finding in json.loads(stdout):
        if finding["filename"] != name:
            continue
        fixable = " [*]" if finding["fix"] else ""
        lines.append(f"{finding['line']}:{finding['column']}: {finding['code']}{fixable} "
                     f"{finding['message']}")
        if finding["fix_title"] is not None:
            lines.append(f"  help: {finding['fix_title']}")
    return lines


@pytest.mark.parametrize("case", _cases(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture(case: Path, tmp_path: Path) -> None:
    code = _code_of(case)
    expected_file = case.with_suffix(".txt")
    assert expected_file.exists(), f"missing expected output {expected_file.name}"
    expected = [line for line in expected_file.read_text().splitlines() if line.strip()]
    copy = _copy_case(case, tmp_path)
    args = ["check", copy.name, "--select", code, "--no-cache", "--output-format", "json",
            *_extra_args(case)]
    result = run_optlint(*args, cwd=copy.parent)
    assert result.returncode == (1 if expected else 0), result.stderr
    assert _findings(result.stdout, copy.name) == expected, result.stdout

    fixed = case.with_name(case.stem + ".fixed.py")
    if fixed.exists():
        run_optlint(*args, "--fix", "--unsafe-fixes", cwd=copy.parent)
        assert copy.read_text() == fixed.read_text()
        again = run_optlint(*args, cwd=copy.parent)
        assert _findings(again.stdout, copy.name) == [], again.stdout
