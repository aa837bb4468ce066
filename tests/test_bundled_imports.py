"""optlint's modules imported from the bundle (optlint.bundled_imports, optlint.module_bundle):
the same modules as the ordinary import gives, the source's code whenever the bundle is stale or
not for this folder, and the bundle rewritten only when a run has something to add.

Each test works on a copy of the package in a temporary folder (its own bundle, its own sources
to change), run in a fresh interpreter."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import optlint

PACKAGE = Path(optlint.__file__).resolve().parent
TRAIN = textwrap.dedent("""\
    import equinox as eqx
    import jax
    import optax

    model = eqx.nn.MLP(2, 2, 8, 2, activation=jax.nn.relu, key=jax.random.PRNGKey(0))
    optimizer = optax.adam(1e-3)
    state = optimizer.init(model)
    key = jax.random.PRNGKey(0)
    a = jax.random.normal(key, (2,))
    b = jax.random.normal(key, (2,))
""")
# Installs the bundle as `optlint check` does, imports what a check imports, and reports how each
# module came.
INSPECT = textwrap.dedent("""
    import importlib, json, sys
    from optlint import bundled_imports
    installed = bundled_imports.install()
    import optlint.engine, optlint.runner
    from optlint.rules import rule_class, RULE_INFOS
    for info in RULE_INFOS:
        rule_class(info)
    importlib.import_module("optlint.report.sarif")  # through the finder, not the statement
    modules = {name: module for name, module in sys.modules.items() if name.startswith("optlint")}
    print(json.dumps({
        "installed": installed,
        "served": sorted(bundled_imports._served),
        "ordinary": sorted(set(modules) - bundled_imports._served - bundled_imports._before),
        "files": {name: getattr(module, "__file__", None) for name, module in modules.items()},
        "specs": {name: module.__spec__.name for name, module in modules.items()},
    }))
""")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the package (sources only) with fresh bytecode and a bundle."""
    shutil.copytree(PACKAGE, tmp_path / "optlint",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    _python(tmp_path, "-m", "compileall", "-q", "optlint")
    _python(tmp_path, "-m", "optlint.module_bundle")
    return tmp_path


def _python(root: Path, *args: str, write_bytecode: bool = True) -> str:
    env = {**os.environ, "PYTHONPATH": str(root)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not write_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run([sys.executable, *args], cwd=root, env=env, text=True,
                          capture_output=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


def _inspect(root: Path) -> dict[str, object]:
    import json

    return json.loads(_python(root, "-c", INSPECT))  # type: ignore[no-any-return]


def test_modules_come_from_the_bundle_with_their_files_and_specs(tree: Path) -> None:
    seen = _inspect(tree)
    assert seen["installed"] is True
    assert len(seen["served"]) > 100, seen  # type: ignore[arg-type]
    assert seen["ordinary"] == [], seen["ordinary"]
    assert "optlint.report.sarif" in seen["served"]  # type: ignore[operator]
    files, specs = seen["files"], seen["specs"]
    assert isinstance(files, dict) and isinstance(specs, dict)
    assert files["optlint.engine"] == str(tree / "optlint" / "engine.py")
    assert files["optlint.analysis"] == str(tree / "optlint" / "analysis" / "__init__.py")
    assert all(specs[name] == name for name in specs)


def test_a_changed_source_is_imported_from_itself(tree: Path) -> None:
    engine = tree / "optlint" / "engine.py"
    engine.write_text(engine.read_text() + "\nCHANGED = True\n")
    program = INSPECT.replace("print(json.dumps({", "print(json.dumps({'changed': "
                              "getattr(optlint.engine, 'CHANGED', False),")
    import json

    seen = json.loads(_python(tree, "-c", program, write_bytecode=False))
    assert seen["changed"] is True
    assert "optlint.engine" in seen["ordinary"]
    assert "optlint.runner" in seen["served"]


def test_a_bundle_written_for_another_folder_is_not_used(tree: Path, tmp_path: Path) -> None:
    moved = tmp_path / "moved"
    shutil.copytree(tree / "optlint", moved / "optlint")  # with its bundle and bytecode
    seen = _inspect(moved)
    assert seen["installed"] is False
    assert seen["served"] == []


def test_a_damaged_bundle_is_not_used(tree: Path) -> None:
    bundle = next((tree / "optlint" / "__pycache__").glob("modules.*.bundle"))
    bundle.write_bytes(bundle.read_bytes()[:-100])
    assert _inspect(tree)["installed"] is False


def test_a_traceback_names_the_source_line(tree: Path) -> None:
    (tree / "optlint" / "broken_for_test.py").write_text("x = 1\nraise ValueError('here')\n")
    _python(tree, "-m", "optlint.module_bundle")  # compiled into the bundle from source
    program = ("from optlint import bundled_imports\nbundled_imports.install()\n"
               "import traceback\ntry:\n    import optlint.broken_for_test\n"
               "except ValueError:\n    traceback.print_exc(file=__import__('sys').stdout)\n")
    out = _python(tree, "-c", program)
    assert f'File "{tree / "optlint" / "broken_for_test.py"}", line 2' in out, out
    assert "raise ValueError('here')" in out, out


def test_a_check_gives_the_same_output_from_the_bundle(tree: Path, tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "train.py").write_text(TRAIN)
    check = ["-m", "optlint", "check", "--no-cache", "--output-format", "json", str(project)]
    bundled = _python(tree, *check)
    for bundle in (tree / "optlint" / "__pycache__").glob("modules.*.bundle"):
        bundle.unlink()
    ordinary = _python(tree, *check, write_bytecode=False)
    assert bundled == ordinary
    assert '"OPT003"' in bundled


def test_a_run_rewrites_the_bundle_only_with_something_to_add(tree: Path,
                                                                 tmp_path: Path) -> None:
    (tmp_path / "train.py").write_text(TRAIN)
    bundle = next((tree / "optlint" / "__pycache__").glob("modules.*.bundle"))
    check = ["-m", "optlint", "check", "--no-cache", str(tmp_path / "train.py")]
    written = bundle.stat().st_mtime_ns
    _python(tree, *check)
    assert bundle.stat().st_mtime_ns == written  # every module was served: nothing to add
    engine = tree / "optlint" / "engine.py"
    engine.write_text(engine.read_text() + "\n")
    _python(tree, *check, write_bytecode=False)
    assert bundle.stat().st_mtime_ns == written  # no bytecode is to be written
    _python(tree, *check)
    assert bundle.stat().st_mtime_ns != written  # engine's new .pyc goes in
    assert "optlint.engine" in _inspect(tree)["served"]  # type: ignore[operator]
