"""Fast start: commands that need no parse import neither libcst nor the rules."""

from __future__ import annotations

import ast
import inspect
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from optlint.catalog import RULE_INFOS, rule_module
from optlint.rules import RULES

# Runs the real CLI in a fresh interpreter and reports, after it exits, which heavy modules it
# had imported: the only honest way to see an import that happened (this test process has them).
PROBE = textwrap.dedent("""
    import json, sys
    from optlint.cli import main
    try:
        main(sys.argv[1:], prog_name="optlint")
    except SystemExit:
        pass
    heavy = sorted(name for name in sys.modules
                   if name == "libcst" or name == "optlint.rules" or name.startswith("optlint.analysis.")
                   and name not in ("optlint.analysis.dependencies", "optlint.analysis.reach",
                                    "optlint.analysis.project_files",
                                    # (read by the cache from texts; no libcst)
                                    "optlint.analysis.project_methods"))
    print("\\nMODULES " + json.dumps(sorted(sys.modules)))
    print("\\nLOADED " + json.dumps(heavy))
""")


def loaded_modules(tmp_path: Path, *args: str) -> list[str]:
    return json.loads(_probe(tmp_path, *args).rsplit("\nLOADED ", 1)[1])


def every_module(tmp_path: Path, *args: str) -> set[str]:
    modules = _probe(tmp_path, *args).rsplit("\nMODULES ", 1)[1].split("\nLOADED ", 1)[0]
    return set(json.loads(modules))


def _probe(tmp_path: Path, *args: str) -> str:
    result = subprocess.run([sys.executable, "-c", PROBE, *args], cwd=tmp_path, text=True,
                            capture_output=True, timeout=120)
    assert "\nMODULES " in result.stdout and "\nLOADED " in result.stdout, \
        result.stdout + result.stderr
    return result.stdout


@pytest.mark.parametrize("args", [
    ("--version",),
    ("rule", "OPT003"),
    ("rule", "unfiltered-equinox-model", "--output-format", "json"),
    ("rule", "--all"),
    ("check", "plain.py"),  # with the cache
    ("check", "--no-cache", "--jobs", "1", "plain.py", "other.py"),
    ("check", "--no-cache", "--output-format", "sarif", "plain.py"),
])
def test_commands_that_parse_nothing_import_no_libcst(tmp_path: Path, args: tuple[str, ...]) -> None:
    (tmp_path / "plain.py").write_text("import os\n\nprint(os.getcwd())\n")
    (tmp_path / "other.py").write_text("def f(x):\n    return x + 1\n")
    assert loaded_modules(tmp_path, *args) == []


def test_a_file_that_passes_the_prefilter_does_import_them(tmp_path: Path) -> None:
    """The probe above sees imports: here they must happen."""
    (tmp_path / "train.py").write_text("import optax\n\noptimizer = optax.adam(1e-3)\n")
    loaded = loaded_modules(tmp_path, "check", "--no-cache", "train.py")
    assert "libcst" in loaded and "optlint.rules" in loaded


def test_the_registry_is_the_catalog() -> None:
    """Every catalog row has its class, in the module its row names, with the row's metadata."""
    from_classes = sorted((rule.code, rule.name, rule.summary, rule.fix_availability,
                           rule.trigger_words, rule.__module__) for rule in RULES)
    from_catalog = sorted((info.code, info.name, info.summary, info.fix_availability,
                           info.trigger_words, rule_module(info)) for info in RULE_INFOS)
    assert from_catalog == from_classes


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_a_rule_class_does_not_restate_its_catalog_row(rule: type) -> None:
    declared = ast.parse(inspect.getsource(rule)).body[0]
    assert isinstance(declared, ast.ClassDef)
    assigned = {target.id for node in declared.body if isinstance(node, ast.Assign)
                for target in node.targets if isinstance(target, ast.Name)}
    assert assigned & {"name", "summary", "fix_availability", "trigger_words"} == set()


def test_rules_holds_only_rules() -> None:
    """optlint/rules/ is the rules and their base; what rules share lives elsewhere."""
    modules = {path.stem for path in (Path(__file__).resolve().parents[1] / "optlint" / "rules")
               .glob("*.py")} - {"__init__", "base"}
    assert modules == {rule_module(info).rsplit(".", 1)[1] for info in RULE_INFOS}


def test_a_warm_run_of_a_project_imports_no_libcst(tmp_path: Path) -> None:
    """Every result cached, some of which consulted other files (a model class from another
    module): deciding that nothing changed reads files and hashes them, and parses none."""
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    (tmp_path / "models.py").write_text(
        "import equinox as eqx\n\n\nclass Net(eqx.Module):\n    mlp: eqx.nn.MLP\n\n"
        "    def __init__(self, key):\n        self.mlp = eqx.nn.MLP(2, 1, 8, 2, key=key)\n")
    (tmp_path / "train.py").write_text(
        "import jax\nimport optax\n\nfrom models import Net\n\n"
        "opt_state = optax.adam(1e-3).init(Net(jax.random.PRNGKey(0)))\n")
    cold = loaded_modules(tmp_path, "check", "--jobs", "1", ".")
    assert cold != []  # the first run parses: the probe can see libcst
    assert loaded_modules(tmp_path, "check", "--jobs", "1", ".") == []


# What a run with nothing to analyse must not pay for: the engine and the rules, a worker pool,
# and the modules behind version metadata and version comparison (together about half of the
# CPU time of a warm run on a real repository, when they were imported).
NOT_ON_THE_WARM_PATH = ("libcst", "optlint.engine", "optlint.rules", "multiprocessing",
                        "concurrent.futures", "importlib.metadata", "packaging.version",
                        "optlint.lint_order")


def test_a_warm_run_starts_no_pool_and_imports_only_what_it_uses(tmp_path: Path) -> None:
    """Enough files for a pool of two workers (with --jobs 2), every result in the cache."""
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    (tmp_path / "models.py").write_text(
        "import equinox as eqx\n\n\nclass Net(eqx.Module):\n    mlp: eqx.nn.MLP\n")
    for number in range(5):
        (tmp_path / f"train{number}.py").write_text(
            "import optax\n\nfrom models import Net\n\n"
            f"state = optax.adam(1e-{number + 1}).init(Net())\n")
    cold = every_module(tmp_path, "check", "--jobs", "2", ".")
    assert {"concurrent.futures", "multiprocessing"} <= cold  # a pool ran: the probe sees it
    warm = every_module(tmp_path, "check", "--jobs", "2", ".")
    assert sorted(warm.intersection(NOT_ON_THE_WARM_PATH)) == []


def test_a_changed_file_is_analysed_again_on_an_otherwise_warm_run(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    (tmp_path / "train.py").write_text("import optax\n\nstate = 1\n")
    every_module(tmp_path, "check", ".")
    assert "libcst" not in every_module(tmp_path, "check", ".")
    (tmp_path / "train.py").write_text("import optax\n\nstate = 2\n")  # same size
    assert "libcst" in every_module(tmp_path, "check", ".")


def test_one_named_file_pays_for_no_walk_and_no_pool(tmp_path: Path) -> None:
    """pre-commit names the staged files: no exclude pattern is matched (pathspec), no pool."""
    (tmp_path / "train.py").write_text("import optax\n\noptimizer = optax.adam(1e-3)\n")
    loaded = every_module(tmp_path, "check", "--no-cache", "train.py")
    assert "libcst" in loaded  # it was analysed
    assert sorted(loaded.intersection({"pathspec", "multiprocessing", "concurrent.futures",
                                       "importlib.metadata"})) == []
    # What only fixes (tempfile), --diff (difflib) and --verbose internal errors (traceback)
    # need.
    assert sorted(loaded.intersection({"tempfile", "difflib", "traceback"})) == []
