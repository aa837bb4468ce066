"""Each rule's declared runtime check (no JAX here): the probe it names exists in the text the
harness carries, and every rule that can be verified declares what the harness builds."""

from __future__ import annotations

import ast

import pytest

from optlint.rules import RULES
from optlint.verify.harness import probe_source, program

PROBED = [rule for rule in RULES if rule.runtime_check and rule.runtime_check.probe]


@pytest.mark.parametrize("rule", PROBED, ids=lambda rule: rule.code)
def test_declared_probe_is_in_the_harness_text(rule) -> None:  # type: ignore[no-untyped-def]
    assert rule.runtime_check is not None and rule.runtime_check.probe is not None
    module, function = rule.runtime_check.probe.split(":")
    text = probe_source(module)
    tree = ast.parse(text)
    imports = [node for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
    assert not [node.module for node in imports if node.module and (
        node.module.startswith("optlint") or node.module == "__future__")]
    assert function in {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def test_program_carries_only_the_probes_its_findings_name() -> None:
    probed = PROBED[0].runtime_check
    assert probed is not None and probed.probe is not None
    findings = [{"id": 0, "code": PROBED[0].code, "kind": probed.builds, "probe": probed.probe,
                 "variants": {}}]
    text = program("x.py", findings, "cpu")
    module = probed.probe.split(":")[0]
    assert f'"{module}"' in text.replace("\\\\", "\\")
    assert "decay_follows_mask" not in program("x.py", [], "cpu").split("if __name__")[1]
