"""OPT002's fix names every edit it makes: on optax < 0.2.4 `static_args` alone still fails
(measured on 0.2.3: `masked` then calls the module-shaped mask with the params), so the fix also
wraps the mask, and says so; on 0.2.8 `static_args` alone runs, and the fix is that edit only."""

from __future__ import annotations

import json

import pytest

from conftest import FIXTURES, run_optlint_in_process as run_optlint


@pytest.mark.parametrize(("version", "wraps"), [("0.2.3", True), ("0.2.8", False)])
def test_the_fix_title_names_the_mask_wrap_where_the_fix_makes_it(version: str,
                                                                   wraps: bool) -> None:
    result = run_optlint("check", "--select", "OPT002", "--optax-version", version,
                         "--output-format", "json", "module_mask.py",
                         cwd=FIXTURES / "OPT002")
    [finding] = json.loads(result.stdout)
    fix = finding["fix"]
    wrapped = any(edit["content"].startswith("lambda _:") for edit in fix["edits"])
    assert wrapped is wraps
    assert ("lambda _:" in fix["message"]) is wraps
