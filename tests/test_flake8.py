"""The flake8 plugin through real flake8 in a subprocess: the same findings as `optlint check`,
and flake8's own noqa, ignores, per-file-ignores, --format and options."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import FIXTURES, run_optlint

TRAIN = textwrap.dedent("""\
    import equinox as eqx
    import jax
    import optax

    model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
    optimizer = optax.adam(1e-3)
    opt_state = optimizer.init(model)
    again = optimizer.init(model)  # noqa: OPT003
    unused = 1  # noqa: OPT003
    state\t= 0; s = optimizer.init(model)
""")
# Fixture arguments with a flake8 spelling; any other argument is applied to both tools alike.
_VERSION_ARGS = {"--optax-version": "--optlint-optax-version",
                 "--equinox-version": "--optlint-equinox-version",
                 "--jax-version": "--optlint-jax-version",
                 "--preview": "--optlint-preview"}


def run_flake8(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "flake8", *args], cwd=cwd, text=True,
                          capture_output=True, timeout=120, check=False)


def _cli_findings(*args: str, cwd: Path) -> list[str]:
    """`optlint check` findings as flake8 prints them: the message, then `; help: ` and the fix
    title where there is one (flake8 has one string per finding)."""
    result = run_optlint("check", "-q", "--no-cache", "--output-format", "json", *args, cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    return sorted(
        f"{f['filename']}:{f['line']}:{f['column']}: {f['code']} {f['message']}"
        + (f"; help: {f['fix_title']}" if f["fix_title"] is not None else "")
        for f in json.loads(result.stdout))


def _flake8_findings(*args: str, cwd: Path) -> list[str]:
    result = run_flake8("--isolated", "--select", "OPT", *args, cwd=cwd)
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    return sorted(result.stdout.splitlines())


def _key(line: str) -> tuple[str, int, int, str]:
    path, row, col, rest = line.split(":", 3)
    return path, int(row), int(col), rest


def _fixture_cases() -> list[Path]:
    return sorted(path for path in FIXTURES.glob("OPT*/**/*.py")
                  if not path.name.startswith("_") and not path.name.endswith(".fixed.py"))


def _fixture_args(case: Path) -> tuple[list[str], list[str]]:
    first = (case.read_text(encoding="utf-8").splitlines() or [""])[0]
    prefix = "# optlint-args:"
    words = shlex.split(first[len(prefix):]) if first.startswith(prefix) else []
    cli, flake8 = [], []
    for word in words:
        flag = word.split("=", 1)[0]
        cli.append(word)
        flake8.append(word.replace(flag, _VERSION_ARGS[flag], 1) if flag in _VERSION_ARGS
                      else word)
    return cli, flake8


@pytest.mark.parametrize("case", _fixture_cases(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_flake8_reports_what_optlint_reports_on_fixtures(case: Path, tmp_path: Path) -> None:
    folder = tmp_path / "case"
    shutil.copytree(case.parent, folder, ignore=shutil.ignore_patterns("*.txt", "*.fixed.py"))
    cli_args, flake8_args = _fixture_args(case)
    expected = _cli_findings(case.name, *cli_args, cwd=folder)
    got = _flake8_findings(case.name, *flake8_args, cwd=folder)
    assert [_key(line) for line in got] == [_key(line) for line in expected]


def test_same_findings_columns_noqa_and_unused_noqa(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    expected = _cli_findings("train.py", cwd=tmp_path)
    codes = [_key(line)[3].split()[0] for line in expected]
    # A plain finding, one after a tab (columns count characters), and an unused noqa (OPT100);
    # the finding under its noqa comment is suppressed by both tools.
    assert codes.count("OPT003") == 2 and codes.count("OPT100") == 1, expected
    assert "train.py:7:28: OPT003" in "\n".join(expected)
    assert _flake8_findings("train.py", cwd=tmp_path) == expected


def test_flake8_disable_noqa_shows_suppressed_findings(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    lines = _flake8_findings("--disable-noqa", "train.py", cwd=tmp_path)
    assert any(line.startswith("train.py:8:") for line in lines)
    assert not any(" OPT100 " in line for line in lines)


def test_flake8_noqa_extend_ignore_and_per_file_ignores(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(TRAIN.replace("opt_state = optimizer.init(model)",
                                                     "opt_state = optimizer.init(model)  # no" "qa"))
    lines = _flake8_findings("train.py", cwd=tmp_path)
    assert lines and not any(line.startswith("train.py:7:") for line in lines)
    assert _flake8_findings("--extend-ignore", "OPT003", "train.py", cwd=tmp_path) == [
        line for line in lines if " OPT003 " not in line]
    assert _flake8_findings("--per-file-ignores", "train.py:OPT", "train.py", cwd=tmp_path) == []
    assert _flake8_findings("--per-file-ignores", "other.py:OPT", "train.py", cwd=tmp_path) \
        == lines


def test_flake8_format_option(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    expected = [_key(line) for line in _cli_findings("train.py", cwd=tmp_path)]
    result = run_flake8("--isolated", "--select", "OPT",
                        "--format=%(path)s|%(row)d|%(col)d|%(code)s|%(text)s", "train.py",
                        cwd=tmp_path)
    rows = sorted(line.split("|") for line in result.stdout.splitlines())
    assert [(path, int(row), int(col), f" {code} {text}") for path, row, col, code, text in rows] \
        == expected


def test_flake8_reads_tool_optlint_settings(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "pyproject.toml").write_text('[tool.optlint]\nignore = ["OPT100"]\n')
    # flake8 is not isolated here: the settings come from [tool.optlint] as for the CLI.
    result = run_flake8("--select", "OPT", "train.py", cwd=tmp_path)
    assert sorted(result.stdout.splitlines()) == _cli_findings("train.py", cwd=tmp_path)
    assert " OPT003 " in result.stdout and " OPT100 " not in result.stdout

    (tmp_path / "pyproject.toml").write_text(
        '[tool.optlint]\nper-file-ignores = { "train.py" = ["OPT"] }\n')
    assert run_flake8("--select", "OPT", "train.py", cwd=tmp_path).stdout == ""


# OPT001 depends on the optax version: optax < 0.2.4 calls a module-shaped mask and raises.
MASKED = textwrap.dedent("""\
    import equinox as eqx
    import jax
    import optax

    model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
    mask = jax.tree_util.tree_map(lambda _: True, model)
    optimizer = optax.adamw(1e-3, mask=mask)
""")


def test_flake8_versions_from_tool_optlint_and_overridden_by_options(tmp_path: Path) -> None:
    (tmp_path / "masked.py").write_text(MASKED)
    (tmp_path / "pyproject.toml").write_text('[tool.optlint]\noptax-version = "0.2.3"\n')
    configured = run_flake8("--select", "OPT", "masked.py", cwd=tmp_path).stdout.splitlines()
    assert configured == _cli_findings("masked.py", cwd=tmp_path)
    assert " OPT001 " in configured[0] and "your optax: 0.2.3 (from configuration)" in configured[0]
    overridden = run_flake8("--select", "OPT", "--optlint-optax-version", "0.2.8", "masked.py",
                            cwd=tmp_path).stdout.splitlines()
    assert overridden == _cli_findings("masked.py", "--optax-version", "0.2.8", cwd=tmp_path)
    assert not any(" OPT001 " in line for line in overridden)
    # The option also reads from flake8's own configuration.
    (tmp_path / "setup.cfg").write_text("[flake8]\noptlint-optax-version = 0.2.8\n")
    assert run_flake8("--select", "OPT", "masked.py", cwd=tmp_path).stdout.splitlines() \
        == overridden


def test_flake8_version_options_are_read_and_validated(tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    good = run_flake8("--isolated", "--select", "OPT", "--optlint-optax-version", "0.2.3",
                      "train.py", cwd=tmp_path)
    assert good.returncode == 1 and "OPT003" in good.stdout
    bad = run_flake8("--isolated", "--select", "OPT", "--optlint-optax-version", "not-a-version",
                     "train.py", cwd=tmp_path)
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        "optlint: error: --optlint-optax-version: not a version: 'not-a-version'"]

    (tmp_path / "pyproject.toml").write_text('[tool.optlint]\noptax-version = "nope"\n')
    broken = run_flake8("--select", "OPT", "train.py", cwd=tmp_path)
    assert broken.returncode == 2 and "Traceback" not in broken.stderr
    assert "optax-version" in broken.stderr
    # The flake8 option replaces the configured version, so the broken one is never used...
    # ...but the configuration is still validated as a whole, as the CLI does.
    assert run_flake8("--select", "OPT", "--optlint-optax-version", "0.2.3", "train.py",
                      cwd=tmp_path).returncode == 2


def test_flake8_skips_files_the_prefilter_rejects(tmp_path: Path) -> None:
    # Not even parsed: a file libcst cannot read gives no OPT000 when no rule could match it.
    (tmp_path / "other.py").write_text("def broken(:\n    pass\n")
    assert _flake8_findings("other.py", cwd=tmp_path) == []
    assert _cli_findings("other.py", cwd=tmp_path) == []
