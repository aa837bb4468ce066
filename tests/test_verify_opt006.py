"""`optlint verify` for OPT006 (`jax.jit` / `jax.grad` / `jax.value_and_grad` given an Equinox
module): the transformation as written and as fixed, applied to a probe with the function's
signature, called with the model the file passes (else a stand-in `eqx.nn.MLP`).

LIBRARY_FACTS.md: on every version measured, `jax.jit` with an `eqx.nn.MLP` argument raises
`TypeError: Error interpreting argument ... as an abstract array`, `jax.grad` /
`jax.value_and_grad` raise `TypeError: ... is not a valid JAX type`, and `eqx.filter_jit` /
`eqx.filter_grad` / `eqx.filter_value_and_grad` run: every finding is `confirmed`.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from conftest import FIXTURES, REPO, run_optlint
from verify_helpers import CACHE, verify, verify_json


def page_block(title: str) -> str:
    page = (REPO / "rules" / "OPT006.md").read_text()
    match = re.search(rf"^## {title}\s*\n```python\n(.*?)```", page, re.DOTALL | re.MULTILINE)
    assert match is not None, title
    return match.group(1)


def test_rule_page_row_confirmed_with_the_pages_own_model() -> None:
    done = verify("--rules", cwd=REPO)
    assert done.returncode == 0, done.stderr
    row = next(line for line in done.stdout.splitlines() if line.startswith("OPT006"))
    assert row.rstrip().endswith("  confirmed"), row  # no "(stand-in model)": the page's MLP
    assert "raises TypeError: Error interpreting argument to <function predict" in row
    assert "at path model.activation" in row
    assert "runs (the transformation ran on MLP" in row


def test_fixtures_every_finding_confirmed(tmp_path: Path) -> None:
    for name in ("fixable.py", "no_fix.py", "_models.py"):
        shutil.copy(FIXTURES / "OPT006" / name, tmp_path / name)
    rows = verify_json("fixable.py", "no_fix.py", cwd=tmp_path)
    got = {(Path(row["filename"]).name, row["line"]): (row["verdict"], row["stand_in_model"],
                                                       row["original"]["exception"])
           for row in rows}
    jit, grad = "Error interpreting argument", "is not a valid JAX type"
    # Models built from the file where a call passes one it can build; stand-ins where the
    # model arrives through a parameter (`train_step(model, ...)`) or `self.model`.
    assert got == {
        ("fixable.py", 21): ("confirmed", False, "TypeError"),  # @jit, model from main()
        ("fixable.py", 26): ("confirmed", False, "TypeError"),  # partial(jax.jit), Encoder(key)
        ("fixable.py", 31): ("confirmed", True, "TypeError"),  # annotated, never called
        ("fixable.py", 37): ("confirmed", True, "TypeError"),  # vag(loss_fn, has_aux=True)
        ("fixable.py", 44): ("confirmed", True, "TypeError"),  # self.forward(self.model, x)
        ("fixable.py", 55): ("confirmed", False, "TypeError"),  # jax.grad(lambda m: ...)(model)
        ("no_fix.py", 10): ("confirmed", False, "TypeError"),  # static_argnums=(2,)
        ("no_fix.py", 15): ("confirmed", False, "TypeError"),  # @jax.jit(static_argnames=...)
        ("no_fix.py", 28): ("confirmed", True, "TypeError"),  # argnums=(0, 1)
        ("no_fix.py", 32): ("confirmed", True, "TypeError"),  # donate_argnums=0
    }
    by_line = {(Path(row["filename"]).name, row["line"]): row for row in rows}
    assert jit in by_line[("fixable.py", 21)]["original"]["message"]
    assert "model.activation" in by_line[("fixable.py", 21)]["original"]["message"]
    assert "encoder.activation" in by_line[("fixable.py", 26)]["original"]["message"]
    assert grad in by_line[("fixable.py", 37)]["original"]["message"]
    assert grad in by_line[("fixable.py", 55)]["original"]["message"]
    assert "model.layers[1].fn" in by_line[("no_fix.py", 15)]["original"]["message"]
    for (name, _), row in by_line.items():
        if name == "fixable.py":  # eqx.filter_jit / filter_grad / filter_value_and_grad run
            assert row["fixed"]["status"] == "ok", row
        else:
            assert row["fixed"] is None, row  # no fix offered, none run


def test_check_fix_verify_applies_the_verified_fix(tmp_path: Path) -> None:
    target = tmp_path / "predict.py"
    target.write_text(page_block("Example"))
    done = run_optlint("check", "--fix", "--verify", "--no-cache", "predict.py", cwd=tmp_path,
                       env={"OPTLINT_CACHE_DIR": str(CACHE)}, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert target.read_text() == page_block("Use instead")
