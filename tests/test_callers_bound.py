"""A function's callers are looked for only in the files that can import its module (the import
graph, transitively: a package re-exporting it counts): a one-file check inside a project no
longer parses every file that happens to name the function (`optlint check` of one file in this
repository parsed 149 files for that). A finding that needs a caller in another file is still
reported, and a namesake in a file that never imports the function's module neither costs a
parse nor hides the callers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import finding_line, run_optlint_in_process
from optlint.analysis import project

STEPS = '''\
import optax


def make_state(model):
    optimizer = optax.adamw(1e-3)
    return optimizer.init(model)
'''

FIT = '''\
import equinox as eqx
import jax

from {module} import make_state

model = eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))
state = make_state(model)
'''

# Files that name `make_state` but import nothing leading to steps.py: one that reaches Optax
# (once parsed to learn that it calls its own function), one that reaches no library.
NAMESAKE_REACHING = '''\
import optax


def make_state(params):
    return optax.sgd(0.1).init(params)


make_state({"w": 1.0})
'''

NAMESAKE_PLAIN = '''\
def make_state(x):
    return x


make_state(3)
'''


def _check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str) -> tuple[list[int], list[str]]:
    """The lines of OPT003's findings in `target`, and the files parsed for lookups."""
    parsed: list[str] = []
    parse = project.parse_screened

    def counted(text: str, filename: str) -> object:
        parsed.append(Path(filename).name)
        return parse(text, filename)

    monkeypatch.setattr(project, "parse_screened", counted)
    result = run_optlint_in_process("check", target, "--select", "OPT003", "--no-cache",
                                    "--output-format", "json", cwd=tmp_path)
    return sorted(finding_line(f) for f in json.loads(result.stdout)), parsed


def test_the_caller_in_an_importing_file_is_found(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "steps.py").write_text(STEPS)
    (tmp_path / "fit.py").write_text(FIT.format(module="steps"))
    (tmp_path / "a_namesake.py").write_text(NAMESAKE_REACHING)
    (tmp_path / "b_namesake.py").write_text(NAMESAKE_PLAIN)
    lines, parsed = _check(tmp_path, monkeypatch, "steps.py")
    assert lines == [6]  # fit.py hands `make_state` an MLP, which holds functions
    assert "fit.py" in parsed and not {"a_namesake.py", "b_namesake.py"} & set(parsed)


def test_a_caller_through_a_package_re_export_is_found(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from .steps import make_state\n")
    (package / "steps.py").write_text(STEPS)
    (tmp_path / "fit.py").write_text(FIT.format(module="pkg"))
    (tmp_path / "namesake.py").write_text(NAMESAKE_REACHING)
    lines, parsed = _check(tmp_path, monkeypatch, "pkg/steps.py")
    assert lines == [6]
    assert "namesake.py" not in parsed


def test_without_the_importing_caller_nothing_is_reported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "steps.py").write_text(STEPS)
    (tmp_path / "fit.py").write_text(FIT.format(module="steps").replace(
        "eqx.nn.MLP(2, 1, 8, 2, key=jax.random.PRNGKey(0))", '{"w": jax.numpy.ones(2)}'))
    assert _check(tmp_path, monkeypatch, "steps.py")[0] == []


def test_imports_are_followed_through_other_files_and_cycles(tmp_path: Path) -> None:
    from optlint.import_graph import ImportGraph

    files = {"a.py": "import b\n", "b.py": "from pkg import helper\nimport a\n",
             "pkg/__init__.py": "from .steps import helper\n", "pkg/steps.py": "import jax\n",
             "plain.py": "import a_module_elsewhere\n", "cycle.py": "import b\nimport cycle\n"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    graph = ImportGraph(tmp_path)
    steps = (tmp_path / "pkg" / "steps.py").resolve()
    assert not graph.imports_transitively((tmp_path / "plain.py").resolve(), steps)
    for name in ("a.py", "b.py", "cycle.py", "pkg/__init__.py"):
        assert graph.imports_transitively((tmp_path / name).resolve(), steps), name
    assert not graph.imports_transitively(steps, (tmp_path / "a.py").resolve())


@pytest.mark.parametrize("pyproject", [True, False], ids=["pyproject", "no-pyproject"])
def test_a_file_named_from_outside_its_project_is_checked_in_its_project(
        tmp_path: Path, pyproject: bool) -> None:
    """`optlint check ../proj/steps.py` from another folder: the callers are looked for in the
    file's project (its nearest pyproject.toml's folder, else its own folder), not in the
    working folder, whose files are unrelated to it."""
    project_folder, working = tmp_path / "proj", tmp_path / "elsewhere"
    project_folder.mkdir()
    working.mkdir()
    if pyproject:
        (project_folder / "pyproject.toml").write_text('[project]\nname = "proj"\n')
    (project_folder / "steps.py").write_text(STEPS)
    (project_folder / "fit.py").write_text(FIT.format(module="steps"))
    (working / "unrelated.py").write_text(NAMESAKE_PLAIN)
    result = run_optlint_in_process("check", "../proj/steps.py", "--select", "OPT003",
                                    "--no-cache", "--output-format", "json", cwd=working)
    assert [finding_line(f) for f in json.loads(result.stdout)] == [6]


def test_a_run_without_a_cache_hashes_none_of_the_files_it_reads(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hashes of the project files an analysis reads key the cache alone: with --no-cache
    (a pre-commit hook's one-file run, whose callers search reads every project file) they are
    not computed."""
    import hashlib

    def refused(*args: object) -> None:
        raise AssertionError("a file was hashed")

    (tmp_path / "steps.py").write_text(STEPS)
    (tmp_path / "fit.py").write_text(FIT.format(module="steps"))
    monkeypatch.setattr(hashlib, "sha256", refused)
    lines, parsed = _check(tmp_path, monkeypatch, "steps.py")
    assert lines == [6] and "fit.py" in parsed
