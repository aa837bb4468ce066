"""The output formats through the real CLI (in-process).

Each is checked against `--output-format json` of the same run: one SARIF result and one
annotation per finding, with the same code, message, fix title and positions.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO, run_optlint_in_process as run_optlint

TRAIN = textwrap.dedent("""\
    import equinox as eqx
    import jax
    import optax

    model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
    optimizer = optax.adam(1e-3)
    opt_state = optimizer.init(model)
    updates, opt_state = optimizer.update(model, opt_state, model)
    unused = 1  # noqa: OPT003
""")
SINGLE = TRAIN.split("updates,")[0]
BROKEN = "import optax\n\ndef broken(:\n    pass\n"
# A finding with advice (a fix title) and no fix.
KEY_LOOP = ("import jax\n\nkey = jax.random.PRNGKey(0)\nfor i in range(3):\n"
            "    x = jax.random.normal(key, (3,))\n")
SARIF_LEVELS = {"none", "note", "warning", "error"}
RULE_PAGE = "https://github.com/optlint/optlint/blob/main/rules/{}.md"


def _project(tmp_path: Path) -> Path:
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "broken.py").write_text(BROKEN)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "single.py").write_text(SINGLE)
    (tmp_path / "keys.py").write_text(KEY_LOOP)
    return tmp_path


def _help(finding: dict[str, Any], separator: str = "; help: ") -> str:
    return "" if finding["fix_title"] is None else separator + finding["fix_title"]


# JSON and text ----------------------------------------------------------------------------------
def test_json_has_a_fix_title_with_a_fix_without_one_and_none(tmp_path: Path) -> None:
    by_code = {f["code"]: f for f in _json_findings(_project(tmp_path))}
    fixed, advised, syntax = by_code["OPT003"], by_code["OPT020"], by_code["OPT000"]
    assert fixed["fix_title"] == fixed["fix"]["message"] == (
        "Filter with `eqx.filter(..., eqx.is_array)`")
    assert advised["fix"] is None and advised["fix_title"].startswith("Split it in the loop")
    assert advised["message"].endswith("every iteration draws the same random numbers")
    assert syntax["fix_title"] is None
    assert by_code["OPT100"]["fix_title"] == "Remove the unused code"


def test_text_shows_the_message_only(tmp_path: Path) -> None:
    findings = _json_findings(_project(tmp_path))
    lines = _run(tmp_path, "text")[1].splitlines()
    assert [line.split(": OPT", 1)[1].split(" ", 1)[1].removeprefix("[*] ") for line in lines] \
        == [f["message"] for f in findings]


def _run(tmp_path: Path, output_format: str, *paths: str) -> tuple[int, str]:
    result = run_optlint("check", *(paths or (".",)), "--output-format", output_format, "-q",
                         cwd=tmp_path)
    assert result.returncode in (0, 1), result.stderr
    return result.returncode, result.stdout


def _json_findings(tmp_path: Path, *paths: str) -> list[dict[str, Any]]:
    return json.loads(_run(tmp_path, "json", *paths)[1])


def _all_codes() -> list[str]:
    listing = run_optlint("rule", "--all")
    assert listing.returncode == 0, listing.stderr
    return [line.split()[0] for line in listing.stdout.splitlines() if line.strip()]


def _region(record: dict[str, Any]) -> dict[str, int]:
    return {"startLine": record["line"], "startColumn": record["column"],
            "endLine": record["end_line"], "endColumn": record["end_column"]}


# SARIF ----------------------------------------------------------------------------------------
def test_sarif_log_run_and_driver(tmp_path: Path) -> None:
    code, out = _run(_project(tmp_path), "sarif")
    assert code == 1
    log = json.loads(out)
    assert log["version"] == "2.1.0"
    assert log["$schema"].endswith("sarif-2.1.0.json")
    assert len(log["runs"]) == 1
    run = log["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"].startswith("file://")
    driver = run["tool"]["driver"]
    assert driver["name"] == "optlint"
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", driver["version"])
    assert driver["informationUri"].startswith("https://")
    rules = driver["rules"]
    # Every rule optlint has, once each, in the order `optlint rule --all` lists them.
    assert [rule["id"] for rule in rules] == _all_codes()
    for rule in rules:
        assert rule["name"] and re.fullmatch(r"[a-z0-9-]+", rule["name"])
        assert rule["shortDescription"]["text"]
        assert rule["helpUri"] == RULE_PAGE.format(rule["id"])
        # The URI points at the page this repository ships for the rule.
        assert (REPO / "rules" / f"{rule['id']}.md").is_file()
        assert rule["defaultConfiguration"]["level"] in SARIF_LEVELS


def test_sarif_one_result_per_finding(tmp_path: Path) -> None:
    _project(tmp_path)
    findings = _json_findings(tmp_path)
    run = json.loads(_run(tmp_path, "sarif")[1])["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    results = run["results"]
    assert {f["code"] for f in findings} >= {"OPT000", "OPT003", "OPT100"}
    assert len(results) == len(findings)
    for result, finding in zip(results, findings, strict=True):
        assert result["ruleId"] == finding["code"]
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        assert result["level"] in SARIF_LEVELS
        assert result["message"]["text"] == finding["message"]
        assert result.get("properties", {}).get("fixTitle") == finding["fix_title"]
        assert len(result["locations"]) == 1
        physical = result["locations"][0]["physicalLocation"]
        assert physical["artifactLocation"] == {"uri": finding["filename"],
                                                "uriBaseId": "%SRCROOT%"}
        assert not physical["artifactLocation"]["uri"].startswith("/")
        assert physical["region"] == _region(finding)
        if finding["fix"] is None:
            assert "fixes" not in result
            continue
        [fix] = result["fixes"]
        assert fix["description"]["text"] == finding["fix"]["message"]
        assert fix["properties"]["applicability"] == finding["fix"]["applicability"]
        [change] = fix["artifactChanges"]
        assert change["artifactLocation"] == physical["artifactLocation"]
        assert [(r["deletedRegion"], r["insertedContent"]["text"]) for r in change["replacements"]] \
            == [(_region(edit), edit["content"]) for edit in finding["fix"]["edits"]]
    assert any(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
               == "pkg/single.py" for result in results)


def _apply_replacements(text: str, replacements: list[dict[str, Any]]) -> str:
    lines = text.splitlines(keepends=True)

    def offset(line: int, column: int) -> int:
        return sum(len(before) for before in lines[:line - 1]) + column - 1

    spans = sorted(((offset(r["deletedRegion"]["startLine"], r["deletedRegion"]["startColumn"]),
                     offset(r["deletedRegion"]["endLine"], r["deletedRegion"]["endColumn"]),
                     r["insertedContent"]["text"]) for r in replacements), reverse=True)
    for start, end, content in spans:
        text = text[:start] + content + text[end:]
    return text


def test_sarif_fix_applied_by_hand_equals_optlint_fix(tmp_path: Path) -> None:
    path = tmp_path / "single.py"
    path.write_text(SINGLE.replace("import equinox as eqx\n", "from equinox import nn\n")
                    .replace("eqx.nn.MLP", "nn.MLP"))
    [result] = json.loads(_run(tmp_path, "sarif", "single.py")[1])["runs"][0]["results"]
    [change] = result["fixes"][0]["artifactChanges"]
    assert len(change["replacements"]) == 2  # the call, and the `import equinox as eqx` it needs
    by_hand = _apply_replacements(path.read_text(), change["replacements"])
    assert run_optlint("check", "single.py", "--fix", "--unsafe-fixes", cwd=tmp_path).returncode == 0
    assert by_hand == path.read_text()


def test_sarif_clean_run_still_lists_rules(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text("import optax\n\noptimizer = optax.adam(1e-3)\n")
    code, out = _run(tmp_path, "sarif")
    run = json.loads(out)["runs"][0]
    assert code == 0 and run["results"] == [] and run["tool"]["driver"]["rules"]


# GitHub annotations ---------------------------------------------------------------------------
ANNOTATION = re.compile(r"::error file=(?P<file>[^,]*),line=(?P<line>\d+),col=(?P<col>\d+),"
                        r"endLine=(?P<end_line>\d+),endColumn=(?P<end_col>\d+),"
                        r"title=optlint \((?P<code>OPT\d{3})\)::(?P<message>.*)")


def test_github_one_annotation_per_finding(tmp_path: Path) -> None:
    _project(tmp_path)
    findings = _json_findings(tmp_path)
    code, out = _run(tmp_path, "github")
    lines = out.splitlines()
    assert code == 1 and len(lines) == len(findings)
    for line, finding in zip(lines, findings, strict=True):
        match = ANNOTATION.fullmatch(line)
        assert match, line
        assert match["file"] == finding["filename"]
        assert (int(match["line"]), int(match["col"]), int(match["end_line"]),
                int(match["end_col"])) == (finding["line"], finding["column"],
                                           finding["end_line"], finding["end_column"])
        assert match["code"] == finding["code"]
        # The fix title on a line of its own (an escaped line break).
        assert match["message"] == finding["message"] + _help(finding, "%0Ahelp: ")


def test_github_escapes_property_values(tmp_path: Path) -> None:
    (tmp_path / "a,b:c.py").write_text(SINGLE)
    out = _run(tmp_path, "github")[1]
    assert out.startswith("::error file=a%2Cb%3Ac.py,line=7,")


def test_github_clean_run_prints_nothing(tmp_path: Path) -> None:
    (tmp_path / "ok.py").write_text("x = 1\n")
    assert _run(tmp_path, "github") == (0, "")


# full, junit, gitlab, -o, statistics ------------------------------------------------------------
def test_full_shows_the_source_line_a_caret_and_the_fix_title(tmp_path: Path) -> None:
    _project(tmp_path)
    findings = _json_findings(tmp_path)
    _, full = _run(tmp_path, "full")
    blocks = full.strip().split("\n\n")
    assert len(blocks) == len(findings)
    first = next(f for f in findings if f["filename"] == "train.py" and f["line"] == 7)
    block = next(b for b in blocks if b.startswith("train.py:7:"))
    lines = block.splitlines()
    assert lines[2] == "7 | " + TRAIN.splitlines()[6]
    caret = lines[3].split("| ", 1)[1]
    assert caret.index("^") == first["column"] - 1
    assert caret.count("^") == first["end_column"] - first["column"]
    assert lines[-1] == f"  help: {first['fix_title']}"
    advised = next(f for f in findings if f["code"] == "OPT020")
    block = next(b for b in blocks if b.startswith("keys.py:5:"))
    assert block.splitlines()[-1] == f"  help: {advised['fix_title']}"  # no fix, still advice
    assert not any(b.splitlines()[-1].startswith("  help:") for b in blocks
                   if ": OPT000 " in b.splitlines()[0])


def test_junit_one_failing_case_per_finding(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ElementTree

    _project(tmp_path)
    findings = _json_findings(tmp_path)
    root = ElementTree.fromstring(_run(tmp_path, "junit")[1])
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == len(findings) == int(root.attrib["failures"])
    assert {suite.attrib["name"] for suite in root.findall("testsuite")} == {
        f["filename"] for f in findings}
    assert sorted(case.find("failure").attrib["type"] for case in cases) == sorted(
        f["code"] for f in findings)
    failures = {case.attrib["name"]: case.find("failure") for case in cases}
    for finding in findings:
        failure = failures[f"{finding['code']} {finding['filename']}:{finding['line']}:"
                           f"{finding['column']}"]
        assert failure.attrib["message"] == finding["message"]
        assert failure.text.endswith(finding["message"] + _help(finding, "\nhelp: "))


def test_gitlab_fingerprints_are_unique_and_survive_moved_lines(tmp_path: Path) -> None:
    _project(tmp_path)
    records = json.loads(_run(tmp_path, "gitlab")[1])
    assert len({r["fingerprint"] for r in records}) == len(records) == len(_json_findings(tmp_path))
    assert all(r["location"]["lines"]["begin"] >= 1 for r in records)
    descriptions = sorted(r["description"] for r in records)
    assert descriptions == sorted(f"{f['code']} {f['message']}{_help(f)}"
                                  for f in _json_findings(tmp_path))
    (tmp_path / "train.py").write_text("\n\n" + TRAIN)  # every finding two lines lower
    moved = json.loads(_run(tmp_path, "gitlab")[1])
    assert {r["fingerprint"] for r in moved} == {r["fingerprint"] for r in records}


def test_output_file_and_statistics_as_json(tmp_path: Path) -> None:
    _project(tmp_path)
    findings = _json_findings(tmp_path)
    done = run_optlint("check", ".", "--statistics", "--output-format", "json", "-o",
                       "report.json", cwd=tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    rows = json.loads((tmp_path / "report.json").read_text())
    assert sum(row["count"] for row in rows) == len(findings)
    assert {row["code"] for row in rows} == {f["code"] for f in findings}


def test_rule_by_name_without_markup_and_as_json() -> None:
    by_name = run_optlint("rule", "callable-pytree-mask")
    assert by_name.returncode == 0 and by_name.stdout.startswith("# OPT001: callable-pytree-mask")
    assert "<!--" not in by_name.stdout
    listing = json.loads(run_optlint("rule", "--all", "--output-format", "json").stdout)
    assert {"OPT000", "OPT001", "OPT100"} <= {row["code"] for row in listing}


UNSAFE_ONLY = ("import optax\n\n"
               "opt = optax.MultiSteps(optax.chain(optax.zero_nans(), optax.adam(1e-3)), "
               "every_k_schedule=4)\n")


@pytest.mark.parametrize("output_format", ["text", "concise", "full"])
def test_fix_mark_only_where_fix_would_apply(tmp_path: Path, output_format: str) -> None:
    """`[*]` marks what `--fix` applies: an unsafe-only fix (OPT004) is marked only with
    `--unsafe-fixes`, and the summary's fixable count agrees with the marks."""
    (tmp_path / "u.py").write_text(UNSAFE_ONLY)
    plain = run_optlint("check", "--no-cache", "--output-format", output_format, "u.py",
                        cwd=tmp_path)
    assert "OPT004 `zero_nans()`" in plain.stdout and "[*]" not in plain.stdout
    assert "(0 fixable with --fix)" in plain.stderr
    assert "1 hidden fixes can be enabled" in plain.stderr
    unsafe = run_optlint("check", "--no-cache", "--unsafe-fixes", "--output-format",
                         output_format, "u.py", cwd=tmp_path)
    assert "OPT004 [*] `zero_nans()`" in unsafe.stdout
    assert "(1 fixable with --fix)" in unsafe.stderr and "hidden" not in unsafe.stderr
    stats = run_optlint("check", "--no-cache", "--statistics", "u.py", cwd=tmp_path)
    assert "OPT004\t[ ] zero-nans-in-multisteps" in stats.stdout


def test_sarif_uris_are_percent_encoded(tmp_path: Path) -> None:
    folder = tmp_path / "weird%dir"
    folder.mkdir()
    (folder / "spa ce.py").write_text(UNSAFE_ONLY)
    result = run_optlint("check", "--no-cache", "--output-format", "sarif", "--exit-zero", ".",
                         cwd=tmp_path)
    log = json.loads(result.stdout)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in log["runs"][0]["results"]]
    assert uris == ["weird%25dir/spa%20ce.py"]


def test_gitlab_paths_are_relative_to_the_project_dir(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "u.py").write_text(UNSAFE_ONLY)
    result = run_optlint("check", "--no-cache", "--output-format", "gitlab", "--exit-zero",
                         "u.py", cwd=sub, env={"CI_PROJECT_DIR": str(tmp_path)})
    assert [r["location"]["path"] for r in json.loads(result.stdout)] == ["sub/u.py"]
    alone = run_optlint("check", "--no-cache", "--output-format", "gitlab", "--exit-zero",
                        "u.py", cwd=sub, env={"CI_PROJECT_DIR": ""})
    assert [r["location"]["path"] for r in json.loads(alone.stdout)] == ["u.py"]


def _with_a_bad_file(tmp_path: Path) -> None:
    (tmp_path / "u.py").write_text(UNSAFE_ONLY)
    (tmp_path / "bad.py").write_bytes(b"import optax\nx = '\xff\xfe'\n")  # not UTF-8


@pytest.mark.parametrize("output_format", ["json", "sarif", "junit", "github", "gitlab"])
def test_a_file_not_checked_is_in_every_ci_format_and_exit_zero_means_it(
        tmp_path: Path, output_format: str) -> None:
    _with_a_bad_file(tmp_path)
    failing = run_optlint("check", "--no-cache", "--output-format", output_format, ".",
                          cwd=tmp_path)
    assert failing.returncode == 2
    result = run_optlint("check", "--no-cache", "--exit-zero", "--output-format", output_format,
                         ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "bad.py" in result.stderr  # still said on standard error
    out = result.stdout
    if output_format == "json":
        entries = [e for e in json.loads(out) if e["code"] is None]
        assert [(e["name"], e["filename"]) for e in entries] == [("not-checked", "bad.py")]
        assert any(e["code"] == "OPT004" for e in json.loads(out))
    elif output_format == "sarif":
        invocation = json.loads(out)["runs"][0]["invocations"][0]
        assert invocation["executionSuccessful"] is False
        [note] = invocation["toolExecutionNotifications"]
        assert note["level"] == "error" and "bad.py" in note["message"]["text"]
        assert note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "bad.py"
    elif output_format == "junit":
        from xml.etree import ElementTree
        root = ElementTree.fromstring(out)
        assert root.get("errors") == "1" and root.get("failures") == "1"
        [error] = root.iter("error")
        assert "bad.py" in (error.get("message") or "")
    elif output_format == "github":
        assert "::error file=bad.py,title=optlint (not checked)::" in out
    else:
        records = json.loads(out)
        assert [r["location"]["path"] for r in records if r["check_name"] == "not-checked"] \
            == ["bad.py"]


def test_sarif_invocation_is_successful_when_every_file_was_checked(tmp_path: Path) -> None:
    (tmp_path / "u.py").write_text(UNSAFE_ONLY)
    result = run_optlint("check", "--no-cache", "--exit-zero", "--output-format", "sarif", ".",
                         cwd=tmp_path)
    invocation = json.loads(result.stdout)["runs"][0]["invocations"][0]
    assert invocation == {"executionSuccessful": True, "toolExecutionNotifications": []}
