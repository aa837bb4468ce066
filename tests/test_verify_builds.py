"""A finding reaches the verifier as data: the lint hands over (rule, finding, diagnostic)
together, and each kind of runtime check has its builder, registered in a table."""

from __future__ import annotations

import re
import typing
from pathlib import Path

from optlint.engine import Linter
from optlint.rules import RULES
from optlint.rules.base import RuntimeCheck
from optlint.verify.builds import BUILDERS
from optlint.verify.command import VerifyRequest, fix_options

PACKAGE = Path(__file__).resolve().parents[1] / "optlint"
REUSE = ("import jax\n\ndef f(key):\n    a = jax.random.normal(key)\n"
         "    b = jax.random.uniform(key)\n    return a, b  # noqa: OPT003\n")


def test_every_kind_of_runtime_check_has_its_builder() -> None:
    kinds = set(typing.get_args(typing.get_type_hints(RuntimeCheck)["builds"]))
    assert set(BUILDERS) == kinds
    assert {rule.runtime_check.builds for rule in RULES if rule.runtime_check} <= kinds


def test_the_lint_hands_over_rule_finding_and_diagnostic_together() -> None:
    linted = Linter(fix_options(VerifyRequest([]))).analyse_text(REUSE, "train.py")
    assert [d.code for d in linted.diagnostics] == ["OPT020", "OPT100"]
    [report] = linted.reports  # OPT100 is the engine's: no rule's finding behind it
    assert report.diagnostic is linted.diagnostics[0] and report.rule.code == "OPT020"
    assert report.finding.roles["call"] is not None


def test_a_suppressed_finding_is_not_handed_over() -> None:
    suppressed = REUSE.replace("uniform(key)\n", "uniform(key)  # noqa: OPT020\n")
    linted = Linter(fix_options(VerifyRequest([]))).analyse_text(suppressed, "train.py")
    assert "OPT020" not in [d.code for d in linted.diagnostics] and linted.reports == []


def test_no_side_channel_from_diagnostics_to_findings_or_kinds() -> None:
    linted = (PACKAGE / "linted.py").read_text()
    plan = (PACKAGE / "verify" / "plan.py").read_text()
    assert "id(" not in linted
    assert re.search(r"builds\s*(==|in\b)", plan) is None
    assert "runtime_check(" not in plan
