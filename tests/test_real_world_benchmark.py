"""The real-world benchmark's bookkeeping, in-process and without the network: reading labels,
reading optlint's JSON, and counting findings against labels."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "real_world.py"
spec = importlib.util.spec_from_file_location("real_world", SCRIPT)
assert spec is not None and spec.loader is not None
real_world = importlib.util.module_from_spec(spec)
sys.modules["real_world"] = real_world
spec.loader.exec_module(real_world)

HEADER = "package\tversion\tfile\tline\tcode\tverdict\treason\n"
PACKAGE = real_world.Package("pkg", "1.0", "sdist", "")


def finding(file: str, line: str, code: str, package: str = "pkg") -> real_world.Finding:
    return real_world.Finding(package, "1.0", file, line, code)


def label(file: str, line: str, code: str, verdict: str) -> real_world.Label:
    return real_world.Label("pkg", "1.0", file, line, code, verdict, "read the code")


def test_counts_per_rule_with_unlabelled_and_stale() -> None:
    findings = [
        finding("a.py", "3", "OPT003"),
        finding("a.py", "9", "OPT003"),
        finding("nb.ipynb", "cell2:4", "OPT006"),
        finding("b.py", "1", "OPT001"),
    ]
    labels = [
        label("a.py", "3", "OPT003", "TP"),
        label("a.py", "9", "OPT003", "FP"),
        label("nb.ipynb", "cell2:4", "OPT006", "FP"),
        label("gone.py", "7", "OPT003", "FP"),
        real_world.Label("other", "2.0", "x.py", "1", "OPT003", "FP", "not checked this run"),
    ]
    comparison = real_world.compare(findings, labels, {("pkg", "1.0")})

    opt003 = comparison.rows["OPT003"]
    assert (opt003.findings, opt003.tp, opt003.fp, opt003.unlabelled) == (2, 1, 1, 0)
    assert opt003.precision == 0.5
    assert comparison.rows["OPT006"].precision == 0.0
    assert comparison.rows["OPT001"].precision is None
    assert comparison.unlabelled == [finding("b.py", "1", "OPT001")]
    assert [s.file for s in comparison.stale] == ["gone.py"]  # "other" was not checked
    total = comparison.total
    assert (total.findings, total.tp, total.fp, total.unlabelled) == (4, 1, 2, 1)
    table = real_world.format_table(comparison)
    assert "OPT003" in table and "0.50" in table and table.splitlines()[-1].startswith("all")


def test_two_findings_on_one_line_share_a_label() -> None:
    findings = [finding("a.py", "3", "OPT003"), finding("a.py", "3", "OPT003")]
    comparison = real_world.compare(findings, [label("a.py", "3", "OPT003", "TP")], set())
    assert comparison.rows["OPT003"].tp == 2


def test_json_output_gives_relative_files_and_notebook_cells(tmp_path: Path) -> None:
    output = json.dumps(
        [
            {"code": "OPT003", "filename": "src/train.py", "line": 12, "message": "m"},
            {"code": "OPT006", "filename": str(tmp_path / "nb.ipynb"), "line": 5, "cell": 3},
        ]
    )
    parsed = real_world.parse_findings(PACKAGE, output, tmp_path)
    assert [(f.file, f.line, f.code) for f in parsed] == [
        ("src/train.py", "12", "OPT003"),
        ("nb.ipynb", "cell3:5", "OPT006"),
    ]


def test_findings_sort_by_cell_and_line_as_numbers() -> None:
    items = [finding("a.py", "10", "OPT003"), finding("a.py", "9", "OPT003"),
             finding("n.ipynb", "cell10:1", "OPT006"), finding("n.ipynb", "cell9:30", "OPT006")]
    ordered = sorted(items, key=real_world.sort_key)
    assert [f.line for f in ordered] == ["9", "10", "cell9:30", "cell10:1"]


def test_labels_file_is_validated(tmp_path: Path) -> None:
    path = tmp_path / "labels.tsv"
    path.write_text("# a comment\n" + HEADER + "pkg\t1.0\ta.py\t3\tOPT003\tTP\treason\n")
    assert real_world.read_labels(path)[0].key == ("pkg", "1.0", "a.py", "3", "OPT003")

    path.write_text(HEADER + "pkg\t1.0\ta.py\t3\tOPT003\tmaybe\treason\n")
    with pytest.raises(SystemExit, match="TP or FP"):
        real_world.read_labels(path)
    path.write_text(HEADER + "pkg\t1.0\ta.py\t3\tOPT003\tFP\t\n")
    with pytest.raises(SystemExit, match="reason"):
        real_world.read_labels(path)
    row = "pkg\t1.0\ta.py\t3\tOPT003\tFP\tr\n"
    path.write_text(HEADER + row + row)
    with pytest.raises(SystemExit, match="twice"):
        real_world.read_labels(path)


def test_repository_labels_and_packages_are_well_formed() -> None:
    packages = real_world.read_packages(real_world.PACKAGES_FILE)
    assert len(packages) >= 10
    known = {(p.name, p.version) for p in packages}
    for entry in real_world.read_labels(real_world.LABELS_FILE):
        assert (entry.package, entry.version) in known, entry
        real_world.sort_key(entry)  # the line is a number or cell<N>:<number>


def test_extra_arguments_after_double_dash_pass_through() -> None:
    args, extra = real_world.parse_args(["--allow-unlabelled", "--", "--preview"])
    assert args.allow_unlabelled and extra == ["--preview"]


# --- --verify: verdicts mapped to labelled findings -------------------------------------------

verify = real_world.verify


def verdict_json(file: str, line: int, code: str, verdict: str, reason: str = "r",
                 seconds: float = 1.0, cell: int | None = None) -> dict[str, object]:
    return {"filename": file, "cell": cell, "line": line, "column": 1, "code": code,
            "verdict": verdict, "reason": reason, "seconds": seconds}


def test_verify_json_gives_relative_files_and_notebook_cells(tmp_path: Path) -> None:
    output = json.dumps([
        verdict_json("src/train.py", 12, "OPT003", "confirmed", seconds=0.5),
        verdict_json(str(tmp_path / "nb.ipynb"), 5, "OPT006", "fix-failed", cell=3),
    ])
    parsed = verify.parse_verdicts("pkg", "1.0", output, tmp_path)
    assert [(v.key, v.verdict, v.seconds) for v in parsed] == [
        (("pkg", "1.0", "src/train.py", "12", "OPT003"), "confirmed", 0.5),
        (("pkg", "1.0", "nb.ipynb", "cell3:5", "OPT006"), "fix-failed", 1.0),
    ]
    # The key is the one a finding of the same place has, so they match.
    found = real_world.parse_findings(PACKAGE, json.dumps(
        [{"code": "OPT006", "filename": "nb.ipynb", "line": 5, "cell": 3}]), tmp_path)
    assert found[0].key == parsed[1].key


def test_verdicts_map_to_findings_in_order_and_missing_ones_are_no_verdict(
        tmp_path: Path) -> None:
    findings = [finding("a.py", "3", "OPT003"), finding("a.py", "3", "OPT003"),
                finding("b.py", "7", "OPT020"), finding("c.py", "1", "OPT001")]
    verdicts = verify.parse_verdicts("pkg", "1.0", json.dumps([
        verdict_json("a.py", 3, "OPT003", "confirmed"),
        verdict_json("a.py", 3, "OPT003", "fix-failed", "the fixed code raises"),
        verdict_json("c.py", 1, "OPT001", "unverifiable", "missing model"),
        verdict_json("z.py", 9, "OPT001", "confirmed"),  # no such finding: left out
    ]), tmp_path)
    labels = [label("a.py", "3", "OPT003", "TP"), label("b.py", "7", "OPT020", "TP")]
    matched = verify.match(findings, verdicts, labels)
    assert [(m.key[2], m.label, m.verdict) for m in matched] == [
        ("a.py", "TP", "confirmed"), ("a.py", "TP", "fix-failed"),
        ("b.py", "TP", "no verdict"), ("c.py", None, "unverifiable")]
    assert matched[2].seconds is None and "no verdict" in matched[2].reason


def verified(code: str, label_verdict: str | None, verdict: str, reason: str = "r",
             seconds: float | None = 2.0) -> object:
    return verify.Verified(("pkg", "1.0", "a.py", "1", code), label_verdict, verdict, reason,
                           seconds)


def test_verify_table_counts_tp_and_fp_verdicts_per_rule() -> None:
    matched = [
        verified("OPT003", "TP", "confirmed", seconds=1.0),
        verified("OPT003", "TP", "fix-failed", seconds=3.0),
        verified("OPT003", "FP", "not-reproduced", seconds=2.0),
        verified("OPT020", "TP", "no verdict", seconds=None),
        verified("OPT020", None, "unverifiable", seconds=4.0),
        verified("OPT022", "TP", "no verdict", seconds=None),
    ]
    rows, total = verify.rows_of(matched)
    assert rows["OPT003"].tp == {"confirmed": 1, "fix-failed": 1}
    assert rows["OPT003"].fp == {"not-reproduced": 1}
    assert rows["OPT003"].seconds_per_finding == 2.0
    assert rows["OPT020"].unlabelled == {"unverifiable": 1}
    assert total.seconds_per_finding == 2.5  # findings without a verdict have no seconds
    table = verify.format_verify_table(rows, total).splitlines()
    opt003 = table[2].split()
    assert opt003[:9] == ["OPT003", "2", "1", "1", "0", "0", "0", "0", "1"]
    assert "not-rep 1" in table[2] and table[2].endswith("2.00")
    assert table[3].split()[:8] == ["OPT020", "1", "0", "0", "0", "0", "0", "1"]
    assert table[3].endswith("4.00")  # unlabelled findings' runs count too
    assert table[4].split()[-2:] == ["-", "-"]  # no FP, and no seconds: no verdict ran
    assert table[-1].startswith("all")


def test_targets_count_timeouts_and_missing_verdicts_as_unverifiable() -> None:
    nine_confirmed = [verified("OPT003", "TP", "confirmed") for _ in range(9)]
    result = verify.targets([*nine_confirmed, verified("OPT003", "TP", "timeout")])
    assert (result.tp, result.tp_unproven, result.tp_fix_failed) == (10, 1, 0)
    assert result.hold  # 10% is within the target
    assert "holds" in verify.format_targets(result)

    unchecked = verify.Verified(("pkg", "1.0", "b.py", "1", "OPT020"), "TP", "no verdict",
                                verify.NO_CHECK_REASON, None)
    result = verify.targets([*nine_confirmed, verified("OPT003", "TP", "timeout"), unchecked,
                             verified("OPT003", "FP", "fix-failed")])
    assert not result.few_unverifiable and result.no_fix_failed  # an FP's fix-failed is fine
    assert (result.tp_unproven, result.tp_checked, result.tp_checked_unproven) == (2, 10, 1)
    result = verify.targets([verified("OPT003", "TP", "fix-failed")])
    assert not result.hold and "MISSED" in verify.format_targets(result)


def test_a_finding_of_a_rule_without_runtime_check_says_so(tmp_path: Path) -> None:
    findings = [finding("a.py", "3", "OPT020"), finding("a.py", "4", "OPT003")]
    matched = verify.match(findings, [], [], checked_rules={"OPT003"})
    assert [m.reason for m in matched] == [verify.NO_CHECK_REASON, verify.NO_VERDICT_REASON]


def test_the_rules_with_a_runtime_check_come_from_optlint() -> None:
    rules = verify.checked_rules(sys.executable)
    assert "OPT003" in rules and "OPT000" not in rules
    with pytest.raises(SystemExit, match="cannot list optlint's runtime checks"):
        verify.checked_rules("/bin/false")


def test_reasons_are_summarised_with_names_and_numbers_blanked() -> None:
    matched = [
        verified("OPT003", "TP", "unverifiable", "missing 'model', 'data' at line 12"),
        verified("OPT003", "TP", "unverifiable", "missing 'config' at line 40"),
        verified("OPT003", "TP", "confirmed", "the original raises"),
        verified("OPT003", "FP", "unverifiable", "missing 'x'"),
    ]
    assert verify.reason_summary(matched) == [
        (1, "OPT003 unverifiable: missing '…', '…' at line N"),
        (1, "OPT003 unverifiable: missing '…' at line N"),
    ]


def test_verify_arguments() -> None:
    args, _ = real_world.parse_args(["--verify", "--verify-once", "--require-targets"])
    assert args.verify and args.verify_once and args.require_targets
    assert args.verify_timeout == 120.0
    assert not real_world.parse_args([])[0].verify


def fake_python(tmp_path: Path, output: str, status: int) -> str:
    """An executable standing in for `python -m optlint verify`: it counts its runs, checks
    the arguments it is given, prints `output` and exits with `status`."""
    script = tmp_path / "fake-python"
    (tmp_path / "output.json").write_text(output)
    script.write_text(
        "#!/bin/sh\n"
        f"echo \"$@\" >> {tmp_path / 'calls'}\n"
        f"cat {tmp_path / 'output.json'}\n"
        f"exit {status}\n")
    script.chmod(0o755)
    return str(script)


def test_run_verify_times_the_second_run_and_reads_its_verdicts(tmp_path: Path) -> None:
    output = json.dumps([verdict_json("a.py", 3, "OPT003", "confirmed")])
    python = fake_python(tmp_path, output, 1)  # 1: something confirmed, not an error
    run = verify.run_verify("pkg", "1.0", tmp_path, ["a.py", "nb.ipynb"], python,
                            tmp_path / "empty.toml", 30.0, warm_up=True)
    calls = (tmp_path / "calls").read_text().splitlines()
    assert len(calls) == 2 and calls[0] == calls[1]
    assert calls[0].startswith("-m optlint verify a.py nb.ipynb --config")
    assert "--output-format json --device cpu --timeout 30.0" in calls[0]
    assert [v.key for v in run.results] == [("pkg", "1.0", "a.py", "3", "OPT003")]
    assert run.wall_seconds > 0

    verify.run_verify("pkg", "1.0", tmp_path, ["a.py"], python, tmp_path / "empty.toml", 30.0,
                      warm_up=False)
    assert len((tmp_path / "calls").read_text().splitlines()) == 3


def test_run_verify_failures_and_unreadable_output_are_errors(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="exit 2"):
        verify.run_verify("pkg", "1.0", tmp_path, ["a.py"], fake_python(tmp_path, "[]", 2),
                          tmp_path / "c.toml", 30.0, warm_up=False)
    with pytest.raises(RuntimeError, match="unreadable output"):
        verify.run_verify("pkg", "1.0", tmp_path, ["a.py"], fake_python(tmp_path, "[{}]", 0),
                          tmp_path / "c.toml", 30.0, warm_up=False)


def test_main_with_verify_prints_the_verdicts_and_exits_3_only_when_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The whole --verify path, with a cache that already holds the package and an interpreter
    that answers as optlint would: no download, no JAX."""
    cache = tmp_path / "cache"
    (cache / "dists" / "pkg-1.0-sdist").mkdir(parents=True)
    (cache / "dists" / "pkg-1.0-sdist" / "pkg-1.0.tar.gz").write_text("")
    root = cache / "src" / "pkg-1.0-sdist"
    root.mkdir(parents=True)
    (root / ".optlint-real-world-extracted").write_text("pkg-1.0.tar.gz\n")
    packages = tmp_path / "packages.tsv"
    packages.write_text("package\tversion\tdist\twhy\npkg\t1.0\tsdist\tx\n")
    labels = tmp_path / "labels.tsv"
    labels.write_text(HEADER + "pkg\t1.0\ta.py\t3\tOPT003\tTP\tr\npkg\t1.0\tb.py\t5\tOPT020\tTP\tr\n")
    findings = json.dumps([{"code": "OPT003", "filename": "a.py", "line": 3},
                           {"code": "OPT020", "filename": "b.py", "line": 5}])
    verdicts = json.dumps([verdict_json("a.py", 3, "OPT003", "fix-failed", "the fixed code raises")])
    versions = json.dumps({"optlint": "0", "optax": "0.2.8", "equinox": "0.13.8", "jax": "0.10.2"})
    python = tmp_path / "fake-python"
    python.write_text(
        "#!/bin/sh\n"
        f"echo \"$@\" >> {tmp_path / 'calls'}\n"
        "case \"$*\" in\n"
        "  *runtime_check*) echo '[\"OPT003\"]' ;;\n"
        f"  -c*) echo '{versions}' ;;\n"
        f"  *'optlint check'*) echo '{findings}' ;;\n"
        f"  *'optlint verify'*) echo '{verdicts}'; exit 1 ;;\n"
        "esac\n")
    python.chmod(0o755)
    argv = ["--cache", str(cache), "--packages", str(packages), "--labels", str(labels),
            "--optlint-python", str(python), "--verify", "--verify-once"]

    assert real_world.main(argv) == 0  # a missed target alone does not change the exit status
    out = capsys.readouterr().out
    table = out[out.index("optlint verify, cold"):]
    rows = {line.split()[0]: line.split()[1:9] for line in table.splitlines()
            if line.startswith("OPT0")}
    assert rows == {"OPT003": ["1", "0", "1", "0", "0", "0", "0", "0"],
                    "OPT020": ["1", "0", "0", "0", "0", "0", "1", "0"]}
    assert "pkg==1.0 a.py:3 OPT003: the fixed code raises" in out
    assert "0 of 2 TP fix-failed" not in out and "1 of 2 TP fix-failed: MISSED" in out
    # OPT020 has no verdict: the stand-in interpreter lists only OPT003 as a checked rule.
    assert "2 of 2" not in out and "1 of 2 (50%): MISSED" in out
    verify_calls = [c for c in (tmp_path / "calls").read_text().splitlines() if " verify " in c]
    assert verify_calls == [verify_calls[0]] and " a.py " in verify_calls[0]  # not b.py

    assert real_world.main([*argv, "--require-targets"]) == 3
