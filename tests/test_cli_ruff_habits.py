"""The ruff habits users reach for: --fix-only, --exit-non-zero-on-fix, --show-files,
--unfixable (option and setting), --per-file-ignores and --extend-exclude on the command line,
--isolated, -e / -n, a warning when no file is found, and --stdin-filename with --force-exclude."""

from __future__ import annotations

from pathlib import Path

from conftest import run_optlint_in_process as run_optlint

# OPT003 (a safe fix) in train.py.
TRAIN = ("import equinox as eqx\nimport jax\nimport optax\n\n"
         "model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))\n"
         "opt_state = optax.adam(1e-3).init(model)\n")


def project(tmp_path: Path, config: str = "") -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n" + config)
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "other.py").write_text(TRAIN)
    return tmp_path


def test_fix_only_reports_fixes_not_findings(tmp_path: Path) -> None:
    project(tmp_path)
    result = run_optlint("check", "-n", "--fix-only", "train.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "" and "Fixed 1 problem." in result.stderr
    assert "eqx.filter(model, eqx.is_array)" in (tmp_path / "train.py").read_text()
    again = run_optlint("check", "-n", "--fix-only", "train.py", cwd=tmp_path)
    assert again.returncode == 0 and "No fixes applied." in again.stderr


def test_exit_non_zero_on_fix(tmp_path: Path) -> None:
    project(tmp_path)
    result = run_optlint("check", "-n", "--fix", "--exit-non-zero-on-fix", "train.py",
                         cwd=tmp_path)
    assert result.returncode == 1 and "1 fixed, 0 remaining" in result.stderr
    clean = run_optlint("check", "-n", "--fix", "--exit-non-zero-on-fix", "train.py",
                        cwd=tmp_path)
    assert clean.returncode == 0, clean.stderr


def test_show_files_lists_what_would_be_checked(tmp_path: Path) -> None:
    project(tmp_path, 'extend-exclude = ["scripts"]\n')
    result = run_optlint("check", "--show-files", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.splitlines() == ["train.py"]


def test_extend_exclude_and_per_file_ignores_on_the_command_line(tmp_path: Path) -> None:
    project(tmp_path)
    both = run_optlint("check", "-n", ".", cwd=tmp_path)
    assert both.stdout.count("OPT003") == 2
    excluded = run_optlint("check", "-n", "--extend-exclude", "scripts", ".", cwd=tmp_path)
    assert excluded.stdout.count("OPT003") == 1 and "scripts" not in excluded.stdout
    ignored = run_optlint("check", "-n", "--per-file-ignores", "scripts/*:OPT003", ".",
                          cwd=tmp_path)
    assert ignored.stdout.count("OPT003") == 1 and "scripts" not in ignored.stdout
    bad = run_optlint("check", "-n", "--per-file-ignores", "scripts/*", ".", cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.startswith("error: --per-file-ignores")


def test_unfixable_option_and_setting(tmp_path: Path) -> None:
    project(tmp_path)
    shown = run_optlint("check", "-n", "--unfixable", "OPT003", "train.py", cwd=tmp_path)
    assert "OPT003 `init`" in shown.stdout and "[*]" not in shown.stdout
    assert "(0 fixable with --fix)" in shown.stderr
    fixed = run_optlint("check", "-n", "--fix", "--unfixable", "OPT0", "train.py", cwd=tmp_path)
    assert fixed.returncode == 1 and (tmp_path / "train.py").read_text() == TRAIN
    (tmp_path / "pyproject.toml").write_text('[tool.optlint]\nunfixable = ["OPT003"]\n')
    configured = run_optlint("check", "-n", "--fix", "train.py", cwd=tmp_path)
    assert configured.returncode == 1 and (tmp_path / "train.py").read_text() == TRAIN


def test_isolated_ignores_the_configuration(tmp_path: Path) -> None:
    project(tmp_path, 'ignore = ["OPT003"]\n')
    configured = run_optlint("check", "-n", "train.py", cwd=tmp_path)
    assert configured.returncode == 0
    isolated = run_optlint("check", "-n", "--isolated", "train.py", cwd=tmp_path)
    assert isolated.returncode == 1 and "OPT003" in isolated.stdout


def test_exit_zero_short_form_and_no_files_warning(tmp_path: Path) -> None:
    project(tmp_path)
    assert run_optlint("check", "-n", "-e", "train.py", cwd=tmp_path).returncode == 0
    (tmp_path / "empty").mkdir()
    result = run_optlint("check", "-n", "empty", cwd=tmp_path)
    assert result.returncode == 0
    assert "warning: No Python files found" in result.stderr


def test_stdin_filename_excluded_with_force_exclude(tmp_path: Path) -> None:
    project(tmp_path, 'extend-exclude = ["scripts"]\n')
    linted = run_optlint("check", "-n", "--stdin-filename", "scripts/other.py", "-",
                         cwd=tmp_path, stdin=TRAIN)
    assert "OPT003" in linted.stdout
    skipped = run_optlint("check", "-n", "--stdin-filename", "scripts/other.py",
                          "--force-exclude", "-", cwd=tmp_path, stdin=TRAIN)
    assert skipped.returncode == 0 and "OPT003" not in skipped.stdout
    fixed = run_optlint("check", "-n", "--fix", "--stdin-filename", "scripts/other.py",
                        "--force-exclude", "-", cwd=tmp_path, stdin=TRAIN)
    assert fixed.returncode == 0 and fixed.stdout == TRAIN
