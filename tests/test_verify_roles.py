"""A finding carries its roles (the nodes it is about) from the rule to the diagnostic, the JSON
output, the cache and the verifier; the verifier keeps no rule codes and reads no messages."""

from __future__ import annotations

import ast
import json
import re
import textwrap
from pathlib import Path

from conftest import REPO, run_optlint_in_process as run_optlint

from optlint.engine import Linter
from optlint.verify.command import VerifyRequest, fix_options
from optlint.verify.plan import Planner

VERIFY = REPO / "optlint" / "verify"

# The parameter the module reaches is the second one: a message regex and "the first parameter"
# are both wrong ways to find it.
TRACED_SECOND = textwrap.dedent('''\
    import equinox as eqx
    import jax

    @jax.jit
    def predict(x, net):
        return net(x)

    net = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
    predict(1.0, net)
    ''')


def _code_strings(path: Path) -> list[str]:
    """The string constants of a module, docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
            and isinstance(node.value, str) and id(node) not in docstrings]


def test_verify_keeps_no_rule_codes() -> None:
    """Per-rule behaviour lives on the rule's RuntimeCheck: no `code == "OPT0nn"` in verify/."""
    files = sorted(VERIFY.rglob("*.py"))
    assert len(files) > 10
    found = [(path.relative_to(REPO).as_posix(), text) for path in files
             for text in _code_strings(path) if re.search(r"OPT\d{3}", text)]
    assert found == []


def test_verify_reads_no_finding_messages() -> None:
    """What a finding is about comes from its roles, never from its message text."""
    reads = []
    for path in sorted(VERIFY.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            read = ((isinstance(node, ast.Attribute) and node.attr == "message"
                     and not (isinstance(node.value, ast.Name) and node.value.id == "warning"))
                    or (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
                        and node.slice.value == "message"))
            if read:
                reads.append(f"{path.relative_to(REPO).as_posix()}:{node.lineno}")
    assert reads == []


def test_roles_reach_the_diagnostic_and_the_plan() -> None:
    linted = Linter(fix_options(VerifyRequest([]))).analyse_text(TRACED_SECOND, "train.py")
    [report] = [r for r in linted.reports if r.diagnostic.code == "OPT006"]
    diagnostic = report.diagnostic
    traced = diagnostic.role("traced")
    assert traced is not None and traced.text == "net"
    assert traced.start is not None and (traced.start.line, traced.start.column) == (5, 16)
    assert report.finding.roles["traced"] is not None
    plan = Planner(linted, None).plan(0, report)
    assert plan is not None
    assert plan.variants["original"]["probe"]["model"] == "net"
    assert plan.variants["original"]["roles"]["model"] == "net"


def test_json_output_and_cache_keep_the_roles(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    (tmp_path / "train.py").write_text(TRACED_SECOND)
    runs = [run_optlint("check", ".", "--select", "OPT006", "--output-format", "json",
                        "--jobs", "1", cwd=tmp_path) for _ in range(2)]  # the second: cached
    first, second = (json.loads(run.stdout) for run in runs)
    assert first == second
    [finding] = first
    assert finding["roles"] == {"traced": {"text": "net", "line": 5, "column": 16,
                                           "end_line": 5, "end_column": 19},
                                "call": {"text": "predict(1.0, net)", "line": 9, "column": 1,
                                         "end_line": 9, "end_column": 18}}


def test_a_role_without_a_node_is_its_value(tmp_path: Path) -> None:
    """OPT022 found at a construction by position: the field names are inferred values."""
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    (tmp_path / "model.py").write_text(textwrap.dedent('''\
        import equinox as eqx
        import jax

        class Pair(eqx.Module):
            encoder: eqx.nn.Linear
            decoder: eqx.nn.Linear

        layer = eqx.nn.Linear(2, 2, key=jax.random.PRNGKey(0))
        pair = Pair(layer, layer)
        '''))
    run = run_optlint("check", ".", "--select", "OPT022", "--output-format", "json",
                      cwd=tmp_path)
    [finding] = json.loads(run.stdout)
    assert finding["roles"] == {"field": {"text": "decoder"}, "other_field": {"text": "encoder"}}
