"""`optlint verify` end to end: real CLI, real JAX, real jitted steps (CPU).

Verdicts covered here, on the installed versions (jax 0.10.2, optax 0.2.8, equinox 0.13.8):
OPT003 confirmed, stand-in models, unverifiable with a reason, fix-failed (through
`check --fix --verify`), and every rule page's Example through `verify --rules` (the outcome the
version matrix in LIBRARY_FACTS.md predicts for optax 0.2.8; constraints.txt pins these versions for
the tests). Timeouts and crashes: test_verify_faults.py; optax 0.2.3 in its own environment:
test_verify_old_optax.py; OPT006: test_verify_opt006.py.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from conftest import FIXTURES, REPO, run_optlint
from verify_helpers import CACHE, verify, verify_json

def expected_on_installed() -> dict[str, str]:
    """What LIBRARY_FACTS.md predicts for each rule page's Example on the installed optax (0.2.8),
    as the page says it (`<!-- verify-on-installed: confirmed -->`): a rule is added with its
    page, and a page that says nothing fails here rather than being skipped."""
    from optlint.catalog import RULE_INFOS

    expected = {}
    for info in RULE_INFOS:
        page = (REPO / "rules" / f"{info.code}.md").read_text(encoding="utf-8")
        found = re.search(r"<!-- verify-on-installed: ([a-z-]+) -->", page)
        assert found, f"rules/{info.code}.md does not say what `verify --rules` gives"
        expected[info.code] = found.group(1)
    return expected


def test_opt003_fixture_confirmed_with_environment(tmp_path: Path) -> None:
    for name in ("aliases_and_helpers.py", "_models.py"):
        shutil.copy(FIXTURES / "OPT003" / name, tmp_path / name)
    rows = verify_json("aliases_and_helpers.py", cwd=tmp_path)
    assert [(row["line"], row["verdict"]) for row in rows] == [
        (19, "confirmed"), (25, "confirmed"), (31, "confirmed")]
    for row in rows:
        assert row["original"]["exception"] == "TypeError"
        assert row["fixed"]["status"] == "ok" and row["fixed"]["exception"] is None
        assert row["backend"] == "cpu" and row["versions"]["optax"] == "0.2.8"
        assert not row["stand_in_model"]
    assert "zeros_like" in rows[0]["original"]["message"]


STANDINS = '''\
import equinox as eqx
import jax
import optax

CHECKPOINT = "no-such-checkpoint.eqx"


def train(cfg, data):
    model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
    opt = optax.adam(cfg.lr)
    state = opt.init(model)
    for batch in data:
        state = train_step(model, state, batch)


def fit(model: eqx.nn.MLP, key):
    opt = optax.adam(1e-3)
    state = opt.init(model)
    return state


def load(path):
    with open(path) as handle:
        handle.read()
    return eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(1))


def restore():
    model = load(CHECKPOINT)
    optimizer = optax.adamw(1e-3)
    opt_state = optimizer.init(model)
    return opt_state


if __name__ == "__main__":
    train(None, [])
'''


def test_unbuildable_and_stand_in_models(tmp_path: Path) -> None:
    (tmp_path / "standins.py").write_text(STANDINS)
    done = verify("standins.py", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    blocks = done.stdout.split("standins.py:")[1:]
    assert blocks[0].startswith("11:22: OPT003 unverifiable: missing a value for parameter `cfg`")
    assert blocks[1].startswith("18:22: OPT003 confirmed (stand-in model)")  # a parameter
    assert blocks[2].startswith("31:32: OPT003 confirmed (stand-in model)")  # load() raised
    assert "jax 0.10.2, optax 0.2.8, equinox 0.13.8" in blocks[1]


def test_rule_pages_table_matches_library_facts() -> None:
    done = verify("--rules", cwd=REPO)
    assert done.returncode == 0, done.stderr
    rows = {line.split()[0]: line for line in done.stdout.splitlines()[1:]}
    checked = 0
    for code, expected in expected_on_installed().items():
        verdict = rows[code].rstrip().rsplit("  ", 1)[1]  # the last column, with notes
        assert verdict.split(" (")[0] == expected, rows[code]
        assert "optax 0.2.8" in rows[code]
        checked += 1
    assert checked == len(rows)


def test_slice_leaves_out_training_loop_and_main() -> None:
    """Plan only (no JAX): the harness gets the imports, defs and building statements."""
    from optlint.engine import Linter
    from optlint.verify.command import VerifyRequest, fix_options
    from optlint.verify.plan import Planner

    source = textwrap.dedent('''\
        import equinox as eqx
        import jax
        import optax
        import wandb

        def make(key):
            return eqx.nn.MLP(2, 1, 8, 2, key=key)

        def main():
            wandb.init(project="x")
            model = make(jax.random.PRNGKey(0))
            optimizer = optax.adam(1e-3)
            print("starting")
            state = optimizer.init(model)
            for step in range(1000):
                state = optimizer.update(model, state)

        if __name__ == "__main__":
            main()
        ''')
    linted = Linter(fix_options(VerifyRequest([]))).analyse_text(source, "train.py")
    plan = Planner(linted, None).plan(0, linted.reports[0])
    assert plan is not None
    codes = [s["code"].strip() for s in plan.variants["original"]["statements"]]
    assert codes == ["import equinox as eqx", "import jax", "import optax",
                     "def make(key):\n    return eqx.nn.MLP(2, 1, 8, 2, key=key)",
                     "model = make(jax.random.PRNGKey(0))", "optimizer = optax.adam(1e-3)"]
    assert plan.variants["original"]["roles"] == {"optimizer": "optimizer", "params": "model"}


def test_update_without_params_is_planned_as_written() -> None:
    """Plan only (no JAX): OPT007's original calls `update` without params but is built with the
    params its fix passes (`fixed_params`), and both variants carry the call's keywords."""
    from optlint.engine import Linter
    from optlint.verify.command import VerifyRequest, fix_options
    from optlint.verify.plan import Planner

    source = textwrap.dedent('''\
        import jax.numpy as jnp
        import optax

        params = {"w": jnp.ones(3)}
        optimizer = optax.chain(optax.adamw(1e-3), optax.contrib.reduce_on_plateau())
        state = optimizer.init(params)
        updates, state = optimizer.update(params, state, value=1.0)
        params = optax.apply_updates(params, updates)
        ''')
    fixed = source.replace("(params, state, value=1.0)", "(params, state, params, value=1.0)")
    options = fix_options(VerifyRequest([]))
    linted = Linter(options).analyse_text(source, "train.py")
    findings = [r for r in linted.reports if r.diagnostic.code == "OPT007"]
    assert len(findings) == 1 and findings[0].diagnostic.fix is not None
    plan = Planner(linted, fixed).plan(0, findings[0])
    assert plan is not None and plan.probe == "update_arguments:update_as_written"
    original, repaired = plan.variants["original"]["roles"], plan.variants["fixed"]["roles"]
    assert "params" not in original and original["fixed_params"] == "params"
    assert repaired["params"] == "params"
    assert original["update_keywords"] == repaired["update_keywords"] == "('value',)"


def test_linter_process_never_imports_jax(tmp_path: Path) -> None:
    (tmp_path / "standins.py").write_text(STANDINS)
    probe = textwrap.dedent(f'''\
        import os, sys
        os.environ["OPTLINT_CACHE_DIR"] = {str(CACHE)!r}
        from pathlib import Path
        from optlint.verify.command import VerifyRequest, fix_options, verify_files
        verdicts = verify_files([Path("standins.py")], fix_options(VerifyRequest([])),
                                VerifyRequest([]).run_settings())
        assert verdicts, "nothing verified"
        print(sorted(m for m in ("jax", "optax", "equinox") if m in sys.modules))
        ''')
    done = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


FIX_GATE = '''\
import equinox as eqx
import jax
import optax

model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
good = optax.adam(1e-3)
good_state = good.init(model)
broken = optax.adam(learning_rate="not a number")
broken_state = broken.init(model)
'''


def test_check_fix_verify_holds_back_failing_fix(tmp_path: Path) -> None:
    target = tmp_path / "gate.py"
    target.write_text(FIX_GATE)
    done = run_optlint("check", "--fix", "--verify", "--no-cache", "gate.py", cwd=tmp_path,
                       env={"OPTLINT_CACHE_DIR": str(CACHE)}, timeout=300)
    text = target.read_text()
    assert "good_state = good.init(eqx.filter(model, eqx.is_array))" in text
    assert "broken_state = broken.init(model)" in text  # fix-failed: not applied
    assert "gate.py:9:28: OPT003 fix not applied: verification says the fixed code raises" \
        in done.stderr, done.stderr
    assert done.returncode == 1


@pytest.mark.parametrize("args", [["--verify"], ["--fix", "--verify", "--diff"]])
def test_verify_flag_needs_fix_on_files(tmp_path: Path, args: list[str]) -> None:
    done = run_optlint("check", *args, ".", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip() == "error: --verify works with --fix on files (not with --diff or stdin)"


def test_examples_give_no_false_fix_failed() -> None:
    """examples/trainer: a parameter (`opt_state` of train_step) must shadow the module-level
    name of the same name, or a state built for another model makes the fix look broken."""
    rows = verify_json("examples/", cwd=REPO)
    verdicts = {(Path(row["filename"]).name, row["line"], row["code"]): row["verdict"]
                for row in rows}
    assert "fix-failed" not in verdicts.values(), verdicts
    # train.py:22 (`update(grads, state, model)`) is not a finding: none of make_optimizer's
    # optimizers reads params in a way that fails on optax 0.2.8 (adamw skips None gradients).
    assert ("train.py", 22, "OPT003") not in verdicts
    # train.py:41 (`init(model)`) is: CONFIG picks make_optimizer's "adamw" branch (the analysis
    # follows the literal config into the helper's `if`), and adamw's init raises TypeError
    # (zeros_like on the MLP's activation function), as running the example shows.
    assert verdicts[("train.py", 41, "OPT003")] == "confirmed"
    assert verdicts[("train.py", 23, "OPT003")] == "confirmed"
    # make_optimizer(config, model) gets its config from the call in train.py; OPT001 there is
    # multi_transform's labels, which raise on every optax version (LIBRARY_FACTS).
    assert {v for (name, _, _), v in verdicts.items() if name == "optim.py"} == {"confirmed"}


def test_notebook_findings_are_verified_and_fixed_in_their_cells(tmp_path: Path) -> None:
    """A notebook is verified as the program `check` analyses (its code cells, in order); the
    verdict names the cell, and `check --fix --verify` writes the fix into that cell."""
    import json

    cells = [{"cell_type": "markdown", "id": "m", "metadata": {}, "source": ["# Train"]},
             {"cell_type": "code", "execution_count": None, "id": "a", "metadata": {},
              "outputs": [], "source": ["import equinox as eqx\n", "import jax\n",
                                        "import optax\n", "%matplotlib inline\n",
                                        "model = eqx.nn.MLP(2, 1, 8, 2, "
                                        "key=jax.random.PRNGKey(0))"]},
             {"cell_type": "code", "execution_count": None, "id": "b", "metadata": {},
              "outputs": [], "source": ["opt_state = optax.adam(1e-3).init(model)"]}]
    (tmp_path / "nb.ipynb").write_text(json.dumps(
        {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    verdicts = verify_json("nb.ipynb", cwd=tmp_path)
    assert [(v["code"], v["cell"], v["line"], v["verdict"]) for v in verdicts] == [
        ("OPT003", 3, 1, "confirmed")], verdicts
    done = run_optlint("check", "nb.ipynb", "--fix", "--verify", cwd=tmp_path,
                       env={"OPTLINT_CACHE_DIR": str(CACHE)})
    assert done.returncode == 0, done.stdout + done.stderr
    written = json.loads((tmp_path / "nb.ipynb").read_text())
    assert "".join(written["cells"][2]["source"]) == (
        "opt_state = optax.adam(1e-3).init(eqx.filter(model, eqx.is_array))")
    assert "%matplotlib inline\n" in written["cells"][1]["source"]


def test_a_package_module_with_relative_imports_is_run_as_that_module(tmp_path: Path) -> None:
    package = tmp_path / "src" / "trainer"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "config.py").write_text("LEARNING_RATE = 1e-3\nWIDTH = 8\n")
    (package / "train.py").write_text(textwrap.dedent("""\
        import equinox as eqx
        import jax
        import optax

        from .config import LEARNING_RATE, WIDTH

        model = eqx.nn.MLP(2, 1, WIDTH, 2, key=jax.random.PRNGKey(0))
        opt_state = optax.adam(LEARNING_RATE).init(model)
        """))
    verdicts = verify_json("src/trainer/train.py", cwd=tmp_path)
    assert [(v["code"], v["verdict"], v["notes"]) for v in verdicts] == [
        ("OPT003", "confirmed", [])], verdicts


CONFIG_PROJECT = {
    "trainer/__init__.py": "",
    "trainer/config.py": textwrap.dedent("""\
        from dataclasses import dataclass
        from typing import NamedTuple


        @dataclass
        class TrainConfig:
            lr: float
            wd: float = 0.0


        class Schedule(NamedTuple):
            lr: float
        """),
    "trainer/optim.py": textwrap.dedent("""\
        import optax


        def init_state(cfg, model):
            optimizer = optax.adamw(cfg.lr, weight_decay=cfg.wd)
            return optimizer.init(model)


        def init_plain(settings, model):
            return optax.adam(settings["lr"]).init(model)
        """),
    "train.py": textwrap.dedent("""\
        import equinox as eqx
        import jax

        from trainer.config import TrainConfig
        from trainer.optim import init_plain, init_state

        CFG = TrainConfig(lr=1e-3, wd=0.1)
        model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
        state = init_state(CFG, model)
        other = init_plain(dict(lr=1e-3), model)
        """),
}


def test_config_objects_from_call_sites_are_built(tmp_path: Path) -> None:
    """`init_state(CFG, model)` with `CFG = TrainConfig(...)` (a dataclass of the project) and
    `init_plain(dict(lr=...), model)`: the harness builds both configs, so the findings in
    optim.py are confirmed rather than unverifiable."""
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    for name, text in CONFIG_PROJECT.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    verdicts = verify_json("trainer/optim.py", cwd=tmp_path)
    assert [(v["line"], v["verdict"]) for v in verdicts] == [(6, "confirmed"), (10, "confirmed")], (
        verdicts)
    assert "`cfg` from the call at train.py:9" in verdicts[0]["notes"]
    assert "`settings` from the call at train.py:10" in verdicts[1]["notes"]


MASK_FOR_FILTERED_PARAMS = '''\
import jax
import optax


def decay_mask(params):
    return jax.tree_util.tree_map(lambda p: p is not None and p.ndim >= 2, params,
                                  is_leaf=lambda p: p is None)


def make_optimizer():
    return optax.inject_hyperparams(optax.adamw)(learning_rate=1e-3, weight_decay=1e-2,
                                                 mask=decay_mask)
'''


def test_a_mask_written_for_filtered_params_is_not_a_failing_fix(tmp_path: Path) -> None:
    """No `init` in the file: the stand-in params are the stand-in model's arrays, never built
    by calling the mask under test (which answers `None` with one bool), so the OPT002 fix
    (`static_args`) is confirmed: weight decay then reaches exactly the weights."""
    (tmp_path / "optim.py").write_text(MASK_FOR_FILTERED_PARAMS)
    verdicts = verify_json("optim.py", cwd=tmp_path)
    assert [(v["code"], v["verdict"]) for v in verdicts] == [("OPT002", "confirmed")], verdicts
