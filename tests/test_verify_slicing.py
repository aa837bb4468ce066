"""Where the verifier's slices get parameter values, and which branch they follow.

Unit tests plan small sources in-process (the slicer is a pure function of the files: no JAX);
the end-to-end tests run the real `optlint verify` once per project (module-scoped fixtures) with
real JAX, on the installed versions (optax 0.2.8: see the expectations below).
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO
from verify_helpers import verify_json

from optlint.engine import Linter
from optlint.verify.command import VerifyRequest, fix_options
from optlint.verify.plan import Planner


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


def plans(root: Path, name: str, code: str = "OPT004") -> list[dict[str, Any]]:
    """The original-source plan of each `code` finding in `root/name`, project root `root`."""
    path = root / name
    text = path.read_text(encoding="utf-8")
    linter = Linter(fix_options(VerifyRequest([str(path)], select=[code])))
    linted = linter.analyse_text(text, str(path))
    planner = Planner(linted, linter.fix_text(text, str(path)).fixed, str(path), root)
    found = [planner.plan(number, r) for number, r in enumerate(linted.reports)]
    return [p.variants["original"] | {"notes": p.variants["original"].get("notes", [])}
            for p in found if p is not None]


def codes(variant: dict[str, Any]) -> list[str]:
    assert "unbuildable" not in variant, variant["unbuildable"]
    return [statement["code"].strip() for statement in variant["statements"]]


ACCUMULATE = textwrap.dedent("""\
    import optax

    def make(config, k=4):
        inner = optax.chain(optax.zero_nans(), optax.adam(config["lr"]))
        return optax.MultiSteps(inner, every_k_schedule=k)
""")


def test_default_gives_the_value(tmp_path: Path) -> None:
    write(tmp_path, {"opt.py": ACCUMULATE + "\nOPT = make({'lr': 0.1}, k=8)\n"})
    [variant] = plans(tmp_path, "opt.py")
    # The default comes first, even with a call site passing another value.
    assert "k = 4" in codes(variant)
    assert "config = {'lr': 0.1}" in codes(variant)
    assert "`config` from the call on line 7" in variant["notes"]


def test_same_file_call_with_a_module_level_literal(tmp_path: Path) -> None:
    write(tmp_path, {"opt.py": ACCUMULATE + (
        '\nLR = 3e-4\nCONFIG = {"lr": LR, "name": "accumulated"}\nOPT = make(CONFIG)\n')})
    [variant] = plans(tmp_path, "opt.py")
    assert 'config = {"lr": 3e-4, "name": "accumulated"}' in codes(variant)


def test_call_site_in_another_file_through_an_import(tmp_path: Path) -> None:
    write(tmp_path, {"pkg/__init__.py": "", "pkg/optim.py": ACCUMULATE,
                     "pkg/train.py": """\
                         import pkg.optim as optim_module
                         from pkg.optim import make

                         model = make(compute_config())  # not a literal: skipped
                         if __name__ == "__main__":
                             CONFIG = {"lr": 1e-3}
                             optimizer = make(CONFIG)
                             again = optim_module.make({"lr": 5.0})
                         """})
    [variant] = plans(tmp_path, "pkg/optim.py")
    assert 'config = {"lr": 1e-3}' in codes(variant)
    assert "`config` from the call at pkg/train.py:7" in variant["notes"]


def test_call_through_a_module_alias(tmp_path: Path) -> None:
    write(tmp_path, {"pkg/__init__.py": "", "pkg/optim.py": ACCUMULATE,
                     "scripts/train.py": "import pkg.optim as o\n\no.make({'lr': 2.0})\n"})
    [variant] = plans(tmp_path, "pkg/optim.py")
    assert "config = {'lr': 2.0}" in codes(variant)
    assert "`config` from the call at scripts/train.py:3" in variant["notes"]


NOISY = textwrap.dedent("""\
    import jax
    import optax

    def make(cfg, key=None):
        every = int(jax.random.randint(key, (), 2, 4))
        return optax.MultiSteps(optax.chain(optax.zero_nans(), optax.adam(cfg["lr"])), every)

""")


def test_none_default_key_gets_the_stand_in(tmp_path: Path) -> None:
    write(tmp_path, {"opt.py": NOISY + "make({'lr': 0.1})\n"})
    [variant] = plans(tmp_path, "opt.py")
    assert variant["bindings"] == {"key": "key"}  # `key=None` means "make one": a stand-in
    assert "key = None" not in codes(variant)


def test_none_has_no_attribute(tmp_path: Path) -> None:
    write(tmp_path, {"opt.py": NOISY + "make(None)\n"})
    [variant] = plans(tmp_path, "opt.py")
    assert variant["unbuildable"] == (
        'missing a value for parameter `cfg` (the call on line 8 passes None, which has no '
        'key "lr")')


def test_unbuildable_argument_stays_missing(tmp_path: Path) -> None:
    write(tmp_path, {"opt.py": ACCUMULATE + "\nOPT = make(load_config())\n"})
    [variant] = plans(tmp_path, "opt.py")
    assert variant["unbuildable"] == "missing a value for parameter `config`"


def test_missing_key_is_named_not_invented(tmp_path: Path) -> None:
    write(tmp_path, {"opt.py": ACCUMULATE + "\nOPT = make({'learning_rate': 0.1})\n"})
    [variant] = plans(tmp_path, "opt.py")
    assert variant["unbuildable"] == ('missing a value for `config["lr"]` '
                                      '(the call on line 7 gives no key "lr")')


def test_a_later_call_with_the_key_is_used(tmp_path: Path) -> None:
    write(tmp_path, {"opt.py": ACCUMULATE + "\nA = make({'wd': 0.1})\nB = make({'lr': 0.5})\n"})
    [variant] = plans(tmp_path, "opt.py")
    assert "config = {'lr': 0.5}" in codes(variant)


def test_branch_path_is_followed(tmp_path: Path) -> None:
    write(tmp_path, {"opt.py": """\
        import optax

        def make(name):
            lr = 1e-3
            if name == "plain":
                lr = 0.1
                return optax.sgd(lr)
            if name == "big":
                lr = 0.5
            elif name == "tiny":
                lr = 1e-6
            else:
                return optax.MultiSteps(optax.chain(optax.zero_nans(), optax.adam(lr)), 4)
        """})
    [variant] = plans(tmp_path, "opt.py")
    # The branch that returns and the sibling branches of the `if` holding the finding cannot
    # precede it; before, the last write of `lr` above the finding (`lr = 1e-6`) was taken.
    assert [c for c in codes(variant) if c.startswith("lr")] == ["lr = 1e-3"]


def test_finding_inside_a_branch_its_call_does_not_take(tmp_path: Path) -> None:
    write(tmp_path, {"opt.py": """\
        import optax

        def make(config):
            name = config["optimizer"]
            if name == "adamw":
                return optax.adamw(config["lr"])
            if name == "accumulated":
                inner = optax.chain(optax.zero_nans(), optax.adam(config["lr"]))
                return optax.MultiSteps(inner, every_k_schedule=config["k"])

        OPT = make({"optimizer": "adamw", "lr": 0.1, "k": 2})
        """})
    [variant] = plans(tmp_path, "opt.py")
    assert codes(variant)[1:] == [
        'config = {"optimizer": "adamw", "lr": 0.1, "k": 2}',
        'inner = optax.chain(optax.zero_nans(), optax.adam(config["lr"]))']


# End to end ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def examples_rows() -> list[dict[str, Any]]:
    return verify_json("examples/", cwd=REPO)


def test_examples_all_verified(examples_rows: list[dict[str, Any]]) -> None:
    """LIBRARY_FACTS.md on optax >= 0.2.4: inject_hyperparams with a mask function is silently
    wrong (OPT002), zero_nans inside MultiSteps keeps a NaN (OPT004), and multi_transform still
    raises with module-shaped labels on 0.2.8 (OPT001 line 34 is about labels, not a mask)."""
    verdicts = {(Path(r["filename"]).name, r["line"], r["code"]): r for r in examples_rows}
    assert {r["verdict"] for r in examples_rows} == {"confirmed"}, verdicts
    assert examples_rows[0]["versions"]["optax"] == "0.2.8"  # what the expectations are for
    optim = {key: row for key, row in verdicts.items() if key[0] == "optim.py"}
    assert set(optim) == {("optim.py", 24, "OPT002"), ("optim.py", 30, "OPT004"),
                          ("optim.py", 34, "OPT001")}
    for row in optim.values():
        assert "`config` from the call at examples/trainer/train.py:40" in row["notes"]
    assert optim[("optim.py", 34, "OPT001")]["original"]["exception"] == "TypeError"
    assert "stand-in model" in optim[("optim.py", 34, "OPT001")]["notes"]  # `model` parameter
    assert optim[("optim.py", 30, "OPT004")]["original"]["status"] == "misbehaved"
    assert optim[("optim.py", 24, "OPT002")]["fixed"]["status"] == "ok"


def test_an_exception_without_a_message_says_where_it_was_raised(
        examples_rows: list[dict[str, Any]]) -> None:
    # L-BFGS given the whole model: jax raises a bare `AttributeError` deep in its own code.
    [row, *_] = [r for r in examples_rows if r["code"] == "OPT005"]
    assert row["original"]["exception"] == "AttributeError"
    assert re.fullmatch(r"\(no message; raised in \w+ at jax/\S+\.py:\d+\)",
                        row["original"]["message"]), row["original"]


@pytest.fixture(scope="module")
def project_rows(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    root = tmp_path_factory.mktemp("project")
    write(root, {"pyproject.toml": "[project]\nname = 'p'\n", "pkg/__init__.py": "",
                 "pkg/optim.py": """\
                     import optax

                     def make(config):
                         if config["kind"] == "accumulated":
                             inner = optax.chain(optax.zero_nans(), optax.adam(config["lr"]))
                             return optax.MultiSteps(inner, every_k_schedule=config["k"])
                         return optax.adam(config["lr"])
                     """,
                 "pkg/run.py": """\
                     from pkg.optim import make

                     CONFIG = {"kind": "plain", "lr": 1e-2}
                     opt = make(CONFIG)
                     """})
    return verify_json("pkg/optim.py", cwd=root)


def test_missing_key_verdict_through_the_cli(project_rows: list[dict[str, Any]]) -> None:
    [row] = project_rows
    assert row["verdict"] == "unverifiable"
    assert row["original"]["detail"] == ('missing a value for `config["k"]` '
                                         '(the call at pkg/run.py:4 gives no key "k")')
