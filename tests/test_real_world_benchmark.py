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
