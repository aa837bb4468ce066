"""The `optlint check` command end to end, through the real CLI in a subprocess."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import run_optlint_in_process as run_optlint

BAD = textwrap.dedent("""\
    import equinox as eqx
    import jax
    import optax

    model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
    optimizer = optax.adam(1e-3)
    opt_state = optimizer.init(model)
""")
FIXED_LINE = "opt_state = optimizer.init(eqx.filter(model, eqx.is_array))"
CLEAN = "import optax\n\noptimizer = optax.adam(1e-3)\n"


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_clean_file_exits_zero(tmp_path: Path) -> None:
    write(tmp_path, "ok.py", CLEAN)
    result = run_optlint("check", ".", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "")
    assert "All checks passed!" in result.stderr


def test_finding_line_format_summary_and_exit_one(tmp_path: Path) -> None:
    write(tmp_path, "train.py", BAD)
    result = run_optlint("check", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("train.py:7:28: OPT003 [*] `init` is given Equinox module MLP")
    assert "Found 1 problem (1 fixable with --fix)." in result.stderr


def test_exit_zero_and_quiet(tmp_path: Path) -> None:
    write(tmp_path, "train.py", BAD)
    result = run_optlint("check", "--exit-zero", "-q", cwd=tmp_path)
    assert result.returncode == 0 and "OPT003" in result.stdout and result.stderr == ""


def test_select_ignore_and_unknown_code(tmp_path: Path) -> None:
    write(tmp_path, "train.py", BAD)
    assert run_optlint("check", "--ignore", "OPT003", cwd=tmp_path).returncode == 0
    assert run_optlint("check", "--select", "OPT1", cwd=tmp_path).returncode == 0
    assert run_optlint("check", "--select", "OPT1", "--extend-select", "OPT00",
                       cwd=tmp_path).returncode == 1
    bad = run_optlint("check", "--select", "XYZ1", cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.strip() == (
        "error: --select: unknown rule code or prefix 'XYZ1'")


def test_fix_writes_and_keeps_mode(tmp_path: Path) -> None:
    path = write(tmp_path, "train.py", BAD)
    path.chmod(0o751)
    result = run_optlint("check", "--fix", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert FIXED_LINE in path.read_text()
    assert stat.S_IMODE(path.stat().st_mode) == 0o751
    assert "1 fixed, 0 remaining" in result.stderr


def test_fix_keeps_crlf_bom_and_latin1(tmp_path: Path) -> None:
    crlf = tmp_path / "crlf.py"
    crlf.write_bytes(b"\xef\xbb\xbf" + BAD.replace("\n", "\r\n").encode())
    latin = tmp_path / "latin.py"
    latin.write_bytes(b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + BAD.encode())
    run_optlint("check", "--fix", cwd=tmp_path)
    data = crlf.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf") and b"\n" not in data.replace(b"\r\n", b"")
    assert FIXED_LINE.encode() in data
    latin_data = latin.read_bytes()
    assert b"caf\xe9" in latin_data and FIXED_LINE.encode() in latin_data


def test_diff_changes_nothing(tmp_path: Path) -> None:
    path = write(tmp_path, "train.py", BAD)
    result = run_optlint("check", "--diff", cwd=tmp_path)
    assert result.returncode == 1
    assert f"+{FIXED_LINE}" in result.stdout and "--- a/train.py" in result.stdout
    assert path.read_text() == BAD
    write(tmp_path, "train.py", CLEAN)
    assert run_optlint("check", "--diff", cwd=tmp_path).returncode == 0


def test_json_output(tmp_path: Path) -> None:
    write(tmp_path, "train.py", BAD)
    result = run_optlint("check", "--output-format", "json", cwd=tmp_path)
    [record] = json.loads(result.stdout)
    assert record["code"] == "OPT003" and record["name"] == "unfiltered-equinox-model"
    assert (record["line"], record["column"], record["end_line"], record["end_column"]) == (
        7, 28, 7, 33)
    assert record["fix"]["applicability"] == "safe"
    assert record["fix"]["edits"] == [{"content": "eqx.filter(model, eqx.is_array)", "line": 7,
                                       "column": 28, "end_line": 7, "end_column": 33}]


def test_statistics(tmp_path: Path) -> None:
    write(tmp_path, "a.py", BAD)
    write(tmp_path, "b.py", BAD)
    result = run_optlint("check", "--statistics", cwd=tmp_path)
    assert result.stdout == "    2\tOPT003\t[*] unfiltered-equinox-model\n"


def test_stdin_check_and_fix(tmp_path: Path) -> None:
    result = run_optlint("check", "-", "--stdin-filename", "src/model.py", stdin=BAD,
                         cwd=tmp_path)
    assert result.returncode == 1 and result.stdout.startswith("src/model.py:7:28: OPT003")
    fixed = run_optlint("check", "-", "--fix", stdin=BAD, cwd=tmp_path)
    assert FIXED_LINE in fixed.stdout and fixed.stdout.startswith("import equinox")


def test_noqa_line_file_and_unused(tmp_path: Path) -> None:
    write(tmp_path, "a.py", BAD.replace("init(model)", "init(model)  # noqa: OPT003"))
    write(tmp_path, "b.py", BAD.replace("init(model)", "init(model)  # noqa"))
    write(tmp_path, "c.py", "# optlint: noqa: OPT003\n" + BAD)
    assert run_optlint("check", "a.py", "b.py", "c.py", cwd=tmp_path).returncode == 0
    write(tmp_path, "d.py", CLEAN.replace("(1e-3)", "(1e-3)  # noqa: OPT003, E501"))
    result = run_optlint("check", "d.py", cwd=tmp_path)
    assert result.stdout.startswith("d.py:3:31: OPT100 [*] unused `noqa` directive (unused: OPT003)")
    run_optlint("check", "d.py", "--fix", cwd=tmp_path)
    assert (tmp_path / "d.py").read_text() == CLEAN.replace("(1e-3)", "(1e-3)  # noqa: E501")
    text = 'x = "# noqa: OPT003"  # optax\n'
    write(tmp_path, "e.py", text)
    assert run_optlint("check", "e.py", cwd=tmp_path).returncode == 0


def test_syntax_error_is_a_finding_and_other_files_still_checked(tmp_path: Path) -> None:
    write(tmp_path, "broken.py", "import optax\ndef f(:\n    pass\n")
    write(tmp_path, "train.py", BAD)
    result = run_optlint("check", cwd=tmp_path)
    lines = result.stdout.splitlines()
    assert lines[0].startswith("broken.py:2:") and " OPT000 SyntaxError: invalid syntax" in lines[0]
    assert lines[1].startswith("train.py:7:28: OPT003")
    assert result.returncode == 1


def test_undecodable_file_is_one_line_and_others_checked(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_bytes(b"x = '\xff\xfe optax'\n")
    write(tmp_path, "train.py", BAD)
    result = run_optlint("check", cwd=tmp_path)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "bad.py: cannot decode" in errors[0]
    assert "Traceback" not in result.stderr and "train.py:7:28" in result.stdout
    assert result.returncode == 2  # bad input is never "all checks passed"
    assert result.stderr.splitlines()[-1] == (
        "Found 1 problem; errors in 1 file (above): what they report was not checked.")


def test_missing_path_is_a_usage_error(tmp_path: Path) -> None:
    result = run_optlint("check", "nope.py", cwd=tmp_path)
    assert result.returncode == 2 and result.stderr.strip() == (
        "error: nope.py: no such file or directory")


def test_rule_crash_is_one_line_exit_two_and_other_rules_run(tmp_path: Path) -> None:
    write(tmp_path, "train.py", BAD)
    script = textwrap.dedent("""
        import sys
        from optlint import rules
        from optlint.rules.base import Rule

        class Crashing(Rule):
            code = "OPT003"
            name = "crashing"
            summary = "always crashes"
            def check(self, ctx):
                raise RuntimeError("boom")
                yield

        every_rule = rules.classes_for
        rules.classes_for = lambda codes: [Crashing, *every_rule(codes)]
        from optlint.cli import main
        sys.argv = ["optlint", "check", "--jobs", "1", "."]
        main()
    """)
    result = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, text=True,
                            capture_output=True)
    assert result.returncode == 2
    assert "error: train.py: internal error in rule OPT003 (crashing): RuntimeError('boom')" in (
        result.stderr)
    assert "Traceback" not in result.stderr
    assert "train.py:7:28: OPT003" in result.stdout  # the real rule still ran


def test_config_settings_errors_and_show_settings(tmp_path: Path) -> None:
    write(tmp_path, "train.py", BAD)
    write(tmp_path, "pyproject.toml", '[tool.optlint]\nignore = ["OPT003"]\noptax-version = "0.2.3"\n')
    assert run_optlint("check", cwd=tmp_path).returncode == 0
    shown = run_optlint("check", "--show-settings", cwd=tmp_path).stdout
    assert "ignore" in shown and "['OPT003']" in shown and "pyproject.toml" in shown
    assert "optax-version" in shown and "0.2.3  (configuration)" in shown
    write(tmp_path, "pyproject.toml", "[tool.optlint]\nselct = ['OPT']\n")
    result = run_optlint("check", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().endswith("unknown key 'selct' in [tool.optlint]")
    write(tmp_path, "pyproject.toml", "[tool.optlint]\noptax-version = 'banana'\n")
    result = run_optlint("check", cwd=tmp_path)
    assert result.returncode == 2 and "'optax-version' is not a version" in result.stderr
    write(tmp_path, "pyproject.toml", "[tool.optlint\n")
    result = run_optlint("check", cwd=tmp_path)
    assert result.returncode == 2 and "invalid TOML" in result.stderr


def test_config_found_upward_and_explicit_config(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", '[tool.optlint]\nignore = ["OPT003"]\n')
    write(tmp_path, "src/pkg/train.py", BAD)
    assert run_optlint("check", ".", cwd=tmp_path / "src" / "pkg").returncode == 0
    other = write(tmp_path, "strict.toml", 'select = ["OPT"]\n')
    assert run_optlint("check", ".", "--config", str(other),
                       cwd=tmp_path / "src" / "pkg").returncode == 1


def test_per_file_ignores(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml",
          '[tool.optlint.per-file-ignores]\n"scripts/*.py" = ["OPT003"]\n')
    write(tmp_path, "scripts/run.py", BAD)
    write(tmp_path, "src/train.py", BAD)
    result = run_optlint("check", cwd=tmp_path)
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["src/train.py"]


def test_discovery_excludes_gitignore_and_explicit_files(tmp_path: Path) -> None:
    write(tmp_path, ".gitignore", "generated/\n")
    write(tmp_path, "generated/out.py", BAD)
    write(tmp_path, ".venv/lib/x.py", BAD)
    write(tmp_path, "build/x.py", BAD)
    write(tmp_path, "stubs/x.pyi", BAD)
    write(tmp_path, "pyproject.toml", '[tool.optlint]\nextend-exclude = ["legacy"]\n')
    write(tmp_path, "legacy/old.py", BAD)
    result = run_optlint("check", cwd=tmp_path)
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["stubs/x.pyi"]
    named = run_optlint("check", "legacy/old.py", cwd=tmp_path)
    assert named.returncode == 1
    forced = run_optlint("check", "legacy/old.py", "--force-exclude", cwd=tmp_path)
    assert forced.returncode == 0
    write(tmp_path, "pyproject.toml", '[tool.optlint]\nrespect-gitignore = false\n')
    assert "generated/out.py" in run_optlint("check", cwd=tmp_path).stdout


def test_parallel_output_identical_to_serial(tmp_path: Path) -> None:
    for number in range(24):
        write(tmp_path, f"pkg/m{number:02}.py", BAD if number % 3 else CLEAN)
    serial = run_optlint("check", "--jobs", "1", cwd=tmp_path)
    parallel = run_optlint("check", "--jobs", "2", cwd=tmp_path)
    assert serial.stdout == parallel.stdout and serial.stdout.count("OPT003") == 16


def test_rule_listing_version_and_unknown_rule() -> None:
    listing = run_optlint("rule", "--all").stdout
    assert "OPT003  unfiltered-equinox-model" in listing and "OPT100" in listing
    assert run_optlint("--version").stdout.strip().startswith("optlint, version ")
    unknown = run_optlint("rule", "OPT999")
    assert unknown.returncode == 2 and unknown.stderr.strip() == "error: unknown rule 'OPT999' (`optlint rule --all` lists them)"


def test_versions_from_lock_file_when_not_installed(tmp_path: Path) -> None:
    write(tmp_path, "uv.lock", '[[package]]\nname = "optax"\nversion = "0.2.2"\n')
    write(tmp_path, "pyproject.toml", "[project]\nname = 'x'\n")
    env = {"PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    # A Python that has optlint's dependencies but not optax: hide site-packages' optax metadata.
    script = textwrap.dedent("""
        import sys
        import optlint.versions
        real = optlint.versions.installed_version
        def fake(name):
            return None if name in ("optax", "equinox", "jax") else real(name)
        optlint.versions.installed_version = fake
        from optlint.cli import main
        sys.argv = ["optlint", "check", "--show-settings"]
        main()
    """)
    result = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, text=True,
                            capture_output=True, env={**os.environ, **env})
    assert "optax-version" in result.stdout and "0.2.2  (uv.lock)" in result.stdout
