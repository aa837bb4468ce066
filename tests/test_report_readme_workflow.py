"""The README's GitHub Actions snippets, run as written: the YAML is read from the README, and
each `run:` step runs with bash as a GitHub runner runs it (`bash --noprofile --norc -eo pipefail`,
in the checked-out repository, with the environment a runner sets). The steps that are actions
(`uses:`) are stood in for: `actions/checkout` by a git repository, `setup-python` by this
interpreter, `upload-sarif` by checking the file it is given against the SARIF 2.1.0 schema. The
install step, `pip install "optlint @ git+..."`, cannot reach GitHub here: a `pip` first on PATH
checks that it is asked for optlint from its repository and leaves this checkout installed."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO
from fetched_data import SARIF_SCHEMA
from test_output_formats import SINGLE

yaml = pytest.importorskip("yaml")

# The pip stand-in: exactly one requirement, optlint's, from optlint's repository.
PIP = """#!{python}
import sys
from packaging.requirements import Requirement
arguments = sys.argv[1:]
assert arguments[0] == "install" and len(arguments) == 2, arguments
wanted = Requirement(arguments[1])
assert wanted.name == "optlint" and wanted.url == "git+https://github.com/optlint/optlint", wanted
print("stand-in pip: optlint is this checkout")
"""


def readme_yaml(after: str) -> Any:
    """The first YAML block after the text `after` in the README."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    rest = readme[readme.index(after):]
    start = rest.index("```yaml\n") + len("```yaml\n")
    return yaml.safe_load(rest[start:rest.index("```\n", start)])


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A checked-out repository with a finding, and a file optlint cannot read (the case that
    once failed the workflow before its upload step)."""
    repository = tmp_path / "repo"
    repository.mkdir()
    (repository / "pyproject.toml").write_text("[tool.optlint]\n")
    (repository / "train.py").write_text(SINGLE)
    (repository / "bad.py").write_bytes(b"import optax\nx = '\xff\xfe'\n")  # not UTF-8
    for command in (["init", "-q"], ["add", "."],
                    ["-c", "user.name=ci", "-c", "user.email=ci@example.com", "commit", "-qm",
                     "start"]):
        subprocess.run(["git", *command], cwd=repository, check=True, capture_output=True)
    return repository


def run_step(step: dict[str, Any], workspace: Path) -> subprocess.CompletedProcess[str]:
    tools = workspace.parent / "tools"
    tools.mkdir(exist_ok=True)
    pip = tools / "pip"
    pip.write_text(PIP.format(python=sys.executable))
    pip.chmod(0o755)
    path = os.pathsep.join([str(tools), str(Path(sys.executable).parent), os.environ["PATH"]])
    runner = {"CI": "true", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": str(workspace),
              "RUNNER_TEMP": str(workspace.parent), "RUNNER_OS": "Linux", "PATH": path,
              "HOME": str(workspace.parent)}
    keep = {name: os.environ[name] for name in ("PYTHONPATH", "LANG", "LC_ALL")
            if name in os.environ}
    script = workspace.parent / "step.sh"
    script.write_text(step["run"])
    return subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                          cwd=workspace, env={**keep, **runner}, capture_output=True, text=True,
                          timeout=300)


def test_the_sarif_workflow_runs_and_gives_upload_a_valid_file(workspace: Path) -> None:
    workflow = readme_yaml("Upload it to GitHub code scanning from a workflow")
    (job,) = workflow["jobs"].values()
    uses = [step["uses"].split("@")[0] for step in job["steps"] if "uses" in step]
    assert uses == ["actions/checkout", "actions/setup-python", "github/codeql-action/upload-sarif"]
    assert workflow["permissions"]["security-events"] == "write"  # upload-sarif needs it
    for step in job["steps"]:
        if "run" in step:
            result = run_step(step, workspace)
            assert result.returncode == 0, (step["run"], result.stdout, result.stderr)
    upload = next(step for step in job["steps"] if "upload-sarif" in step.get("uses", ""))
    log = json.loads((workspace / upload["with"]["sarif_file"]).read_text())
    run = log["runs"][0]
    assert [r["ruleId"] for r in run["results"]] == ["OPT003"]
    assert run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] \
        == "train.py"
    assert "bad.py" in json.dumps(run["invocations"][0]["toolExecutionNotifications"])
    jsonschema = pytest.importorskip("jsonschema")
    try:
        schema = json.loads(SARIF_SCHEMA.read())
    except OSError as error:
        pytest.skip(f"the workflow ran; the SARIF 2.1.0 schema to validate its file cannot be "
                    f"fetched: {error}")
    jsonschema.Draft4Validator(schema).validate(log)


def test_the_annotations_step_fails_the_job_with_annotations(workspace: Path) -> None:
    (step,) = readme_yaml("annotations on the pull request's diff")
    assert shlex.split(step["run"])[:2] == ["optlint", "check"]
    result = run_step(step, workspace)
    assert result.returncode != 0  # a finding fails the job, as a linter's step should
    lines = result.stdout.splitlines()
    assert any(line.startswith("::error file=train.py,line=7,") and "(OPT003)" in line
               for line in lines), lines
    assert any(line.startswith("::error file=bad.py,") for line in lines), lines
