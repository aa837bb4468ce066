"""The CI formats read by the tools that read them in CI: SARIF validated against the official
OASIS SARIF 2.1.0 schema (formats checked too: `uri-reference` for every artifact URI), and
JUnit XML read by junitparser, the parser many CI dashboards' plugins use. The report covers
findings with and without fixes, a notebook, a syntax error, a file not checked and paths that
need percent-encoding."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import run_optlint_in_process as run_optlint
from fetched_data import SARIF_SCHEMA
from test_output_formats import BROKEN, KEY_LOOP, TRAIN

NOTEBOOK = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [],
                       "execution_count": None, "source": TRAIN}],
            "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
            "nbformat": 4, "nbformat_minor": 5}


def _report(tmp_path: Path, output_format: str) -> str:
    (tmp_path / "train.py").write_text(TRAIN)
    (tmp_path / "broken.py").write_text(BROKEN)
    (tmp_path / "keys.py").write_text(KEY_LOOP)
    (tmp_path / "weird%dir").mkdir(exist_ok=True)
    (tmp_path / "weird%dir" / "spa ce.py").write_text(TRAIN)
    (tmp_path / "nb.ipynb").write_text(json.dumps(NOTEBOOK))
    (tmp_path / "bad.py").write_bytes(b"import optax\nx = '\xff\xfe'\n")  # not UTF-8
    result = run_optlint("check", "--no-cache", "--exit-zero", "--output-format", output_format,
                         ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def sarif_validator() -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    try:
        schema = json.loads(SARIF_SCHEMA.read())
    except OSError as error:
        pytest.skip(f"the SARIF 2.1.0 schema is not in {SARIF_SCHEMA.path} and cannot be "
                    f"fetched from {SARIF_SCHEMA.url}: {error}")
    validator_class = jsonschema.validators.validator_for(schema)
    assert validator_class is jsonschema.Draft4Validator  # the schema's own draft
    return validator_class(schema, format_checker=jsonschema.FormatChecker())


def test_sarif_is_valid_under_the_official_schema(tmp_path: Path, sarif_validator: Any) -> None:
    log = json.loads(_report(tmp_path, "sarif"))
    run = log["runs"][0]
    assert {r["ruleId"] for r in run["results"]} >= {"OPT000", "OPT003", "OPT020"}
    assert any("fixes" in r for r in run["results"])
    assert run["invocations"][0]["toolExecutionNotifications"]  # bad.py
    assert any("%25dir/spa%20ce.py" in json.dumps(r) for r in run["results"])
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
              for e in sarif_validator.iter_errors(log)]
    assert errors == []


def test_the_schema_check_can_fail(tmp_path: Path, sarif_validator: Any) -> None:
    """A level SARIF does not have is caught; so is an unencoded space in a URI."""
    log = json.loads(_report(tmp_path, "sarif"))
    result = log["runs"][0]["results"][0]
    result["level"] = "fatal"
    assert [e.message for e in sarif_validator.iter_errors(log)] == [
        "'fatal' is not one of ['none', 'note', 'warning', 'error']"]
    result["level"] = "error"
    result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] = "weird dir/a b.py"
    # jsonschema checks `uri-reference` only with rfc3986-validator (in the test extra).
    pytest.importorskip("rfc3986_validator")
    messages = [e.message for e in sarif_validator.iter_errors(log)]
    assert messages == ["'weird dir/a b.py' is not a 'uri-reference'"]


def test_junit_is_read_by_junitparser(tmp_path: Path) -> None:
    junitparser = pytest.importorskip("junitparser")
    findings = json.loads(_report(tmp_path, "json"))
    report = tmp_path / "optlint.xml"
    report.write_text(_report(tmp_path, "junit"))
    xml = junitparser.JUnitXml.fromfile(str(report))
    suites = list(xml) if isinstance(xml, junitparser.JUnitXml) else [xml]
    cases = [(suite.name, case) for suite in suites for case in suite]
    outcomes = [(type(result).__name__, result.type, result.message)
                for _, case in cases for result in case.result]
    rule_findings = [f for f in findings if f["code"] is not None]
    failures = [o for o in outcomes if o[0] == "Failure"]
    errors = [o for o in outcomes if o[0] == "Error"]
    assert sorted((code, message) for _, code, message in failures) == sorted(
        (f["code"], f["message"]) for f in rule_findings)
    assert len(errors) == 1 and "bad.py" in (errors[0][2] or "")
    assert {suite for suite, _ in cases} >= {"train.py", "nb.ipynb", "weird%dir/spa ce.py"}
    # The totals junitparser computes agree with what the report says of itself.
    xml.update_statistics()
    assert xml.failures == len(failures) and xml.errors == 1
    assert xml.tests == len(cases)
