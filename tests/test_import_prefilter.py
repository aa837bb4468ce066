"""The import-based prefilter (optlint/prefilter.py): a file is parsed when it, the project files
it imports, or the files that import it (and what they import) use a library one of its rules
needs; common words alone (`update`, `random`, `static`) no longer make a file worth a parse.
And the cache keeps a skipped file's "nothing here" only while the files that decided it are the
same."""

from __future__ import annotations

import os
import time
from pathlib import Path

from conftest import run_optlint_in_process as run_optlint
from test_fast_start import loaded_modules

from optlint.catalog import all_codes
from optlint.engine import Linter, LintOptions
from optlint.selection import Selection
from optlint.versions import LibraryVersions

# The blind case srcpkg_jit_step's shape: neither fit.py nor steps.py names Equinox; the model
# comes from models.py, which fit.py imports and hands to steps.py's jitted step.
STEPS = """\
import jax
import jax.numpy as jnp


def mse(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)


def sgd_step(model, x, y, lr=1e-2):
    grads = jax.grad(mse)(model, x, y)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, model, grads)


train_step = jax.jit(sgd_step)
"""
MODELS_EQUINOX = """\
import jax
import equinox as eqx


def make_model(key):
    return eqx.nn.MLP(3, 1, 16, 2, activation=jax.nn.softplus, key=key)
"""
MODELS_PLAIN = """\
import jax


def make_model(key):
    return jax.random.normal(key, (3, 1))
"""
FIT = """\
import jax

from models import make_model
from steps import train_step

model = make_model(jax.random.key(0))
x = jax.random.normal(jax.random.key(1), (16, 3))
model = train_step(model, x, x)
"""


def write(root: Path, files: dict[str, str]) -> None:
    (root / "pyproject.toml").write_text("[tool.optlint]\n")
    for name, text in files.items():
        (root / name).write_text(text)


def findings(root: Path, *extra: str) -> tuple[list[str], str]:
    done = run_optlint("check", ".", "--select", "OPT006", "-v", "--jobs", "1", *extra, cwd=root)
    assert done.returncode in (0, 1), done.stderr
    found = sorted(line.split(" ", 2)[0] + " " + line.split(" ", 2)[1]
                   for line in done.stdout.splitlines() if ": OPT" in line)
    cache_line = next((line for line in done.stderr.splitlines() if line.startswith("cache:")), "")
    return found, cache_line


def linter(root: Path, *codes: str) -> Linter:
    selected = frozenset(codes or all_codes())
    return Linter(LintOptions(Selection(selected), LibraryVersions(), root))


def test_a_model_passed_in_by_an_importer_is_found(tmp_path: Path) -> None:
    write(tmp_path, {"models.py": MODELS_EQUINOX, "steps.py": STEPS, "fit.py": FIT})
    assert findings(tmp_path, "--no-cache")[0] == ["steps.py:10:13: OPT006",
                                                   "steps.py:14:14: OPT006"]


def test_files_nothing_brings_a_rules_library_to_are_not_parsed(tmp_path: Path) -> None:
    """`update`, `random`, `static`, `clip`, `mask` were each enough for a parse."""
    plain = ("import random\nimport numpy as np\n\n\ndef update(state, clip, static, mask):\n"
             "    rng = np.random.default_rng(random.randint(0, 9))\n"
             "    return {**state, 'x': rng.random()}\n")
    (tmp_path / "plain.py").write_text(plain)
    (tmp_path / "uses_plain.py").write_text("from plain import update\n\nupdate({}, 1, 2, 3)\n")
    assert not linter(tmp_path).may_match(plain, str(tmp_path / "plain.py"))
    assert loaded_modules(tmp_path, "check", "--no-cache", "--jobs", "1", ".") == []
    # The same words in a file that imports JAX: worth a parse (OPT020 may fire).
    assert linter(tmp_path).may_match("import jax\n" + plain, str(tmp_path / "plain.py"))


def test_what_an_imported_file_or_an_importer_uses_decides(tmp_path: Path) -> None:
    write(tmp_path, {"models.py": MODELS_PLAIN, "steps.py": STEPS, "fit.py": FIT})
    check = linter(tmp_path, "OPT006")
    assert not check.may_match(STEPS, str(tmp_path / "steps.py"))
    # OPT020 may report there: its importer fit.py draws keys, which a step could be given.
    assert linter(tmp_path, "OPT020").may_match(STEPS, str(tmp_path / "steps.py"))
    (tmp_path / "models.py").write_text(MODELS_EQUINOX)
    check = linter(tmp_path, "OPT006")
    assert check.may_match(FIT, str(tmp_path / "fit.py"))  # it imports models.py
    assert check.may_match(STEPS, str(tmp_path / "steps.py"))  # fit.py imports it and models


def test_a_skipped_file_is_analysed_again_when_an_imported_module_changes(
        tmp_path: Path) -> None:
    """steps.py and fit.py were skipped (nothing Equinox anywhere); then models.py starts to
    build an Equinox model: the warm run must analyse them again and find the jit."""
    write(tmp_path, {"models.py": MODELS_PLAIN, "steps.py": STEPS, "fit.py": FIT})
    assert findings(tmp_path) == ([], "cache: 0 of 3 files unchanged since the last run")
    assert findings(tmp_path) == ([], "cache: 3 of 3 files unchanged since the last run")
    (tmp_path / "models.py").write_text(MODELS_EQUINOX)
    old = time.time() - 3600  # an edit that looks old: the content decides, not the time
    os.utime(tmp_path / "models.py", (old, old))
    found, cache_line = findings(tmp_path)
    assert found == ["steps.py:10:13: OPT006", "steps.py:14:14: OPT006"]
    assert cache_line == "cache: 0 of 3 files unchanged since the last run"


def test_a_new_importer_makes_a_skipped_file_worth_analysing(tmp_path: Path) -> None:
    write(tmp_path, {"models.py": MODELS_EQUINOX, "steps.py": STEPS})
    assert findings(tmp_path)[0] == []
    (tmp_path / "fit.py").write_text(FIT)
    assert findings(tmp_path)[0] == ["steps.py:10:13: OPT006", "steps.py:14:14: OPT006"]


def _worth_a_parse(path: Path, root: Path, code: str) -> bool:
    from optlint.sources import open_source

    source = open_source(path)
    assert source is not None
    return Linter(LintOptions(Selection(frozenset({code})), LibraryVersions(), root)).may_match(
        source.program, str(path))


def test_every_fixture_with_findings_passes_the_prefilter() -> None:
    """The file each fixture's expected findings are in is parsed, with only that rule on (a
    rule's own words and libraries must let it through, not another rule's)."""
    from conftest import FIXTURES

    cases = [case for case in sorted(FIXTURES.glob("OPT*/**/*.py"))
             if not case.name.startswith("_") and not case.name.endswith(".fixed.py")
             and case.with_suffix(".txt").exists() and case.with_suffix(".txt").read_text().strip()]
    assert len(cases) > 50
    skipped = [case for case in cases
               if not _worth_a_parse(case, case.parent, case.relative_to(FIXTURES).parts[0])]
    assert skipped == []


def test_every_recall_positive_passes_the_prefilter(tmp_path: Path) -> None:
    """The main file of every blind positive (the one with the `# expect` mark) is parsed, with
    only the case's rule on, as the benchmark checks it: copied alone into a project."""
    import shutil
    import sys

    from conftest import REPO

    sys.path.insert(0, str(REPO / "benchmarks" / "recall"))
    import run as recall

    positives = [case for case in recall.discover() if case.kind == "positive"]
    assert len(positives) > 100
    skipped = []
    for number, case in enumerate(positives):
        root = tmp_path / str(number)
        if case.root.is_file():
            root.mkdir()
            shutil.copy2(case.root, root / case.root.name)
        else:
            shutil.copytree(case.root, root)
        main = root / (case.root.name if case.root.is_file() else
                       case.main.relative_to(case.root))
        if not _worth_a_parse(main, root, case.rule):
            skipped.append(case.ident)
    assert skipped == []
