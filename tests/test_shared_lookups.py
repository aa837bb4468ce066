"""The files several checked files look into are parsed once, in the parent, before a pool's
workers are forked (optlint/shared_lookups.py): each worker inherits their trees rather than
parsing them again, and the findings are those of one process."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from optlint import pool
from optlint.config import Settings
from optlint.import_graph import ImportGraph
from optlint.lint_types import LintOptions
from optlint.selection import Selection
from optlint.shared_lookups import shared_lookups
from optlint.versions import LibraryVersions

# Four trainers build the model of models.py (an Equinox module, looked up by each); plain.py is
# imported by all of them too but never reaches a library, and solo.py by one only.
HELPERS = {
    "models.py": "import equinox as eqx\n\n\nclass Net(eqx.Module):\n    size: int\n",
    "plain.py": "WIDTH = 4\n",
    "solo.py": "import optax\n\n\ndef make():\n    return optax.adam(1e-3)\n",
}
TRAINER = ("import jax\nimport optax\n{extra}from models import Net\nfrom plain import WIDTH\n\n"
           "model = Net(WIDTH)\nopt = optax.adam(1e-3)\nstate = opt.init(model)\n"
           "key = jax.random.PRNGKey(0)\na = jax.random.normal(key)\nb = jax.random.normal(key)\n")


def write(root: Path) -> list[Path]:
    for name, text in HELPERS.items():
        (root / name).write_text(text)
    for number in range(4):
        extra = "from solo import make\n" if number == 0 else ""
        (root / f"train{number}.py").write_text(TRAINER.format(extra=extra))
    return sorted(root.glob("*.py"))


def test_the_shared_files_are_those_several_files_import_that_reach_the_libraries(
        tmp_path: Path) -> None:
    paths = write(tmp_path)
    shared = shared_lookups(paths, ImportGraph(tmp_path))
    assert [path.name for path in shared] == ["models.py"]


def test_forked_workers_parse_no_shared_file_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import libcst as cst

    import optlint.analysis.project as project

    monkeypatch.setattr(pool, "_start_method", lambda: "fork")  # workers inherit the patches
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    paths = write(tmp_path)
    log = tmp_path.parent / f"{tmp_path.name}-parses.log"
    original = project.cst.parse_module

    def logged(text: str) -> cst.Module:  # every process appends, the parent and the workers
        with log.open("a") as stream:
            stream.write(f"{os.getpid()} {text.splitlines()[-1]!r}\n")
        return original(text)

    options = LintOptions(Selection.from_settings(Settings(project_root=tmp_path)),
                          LibraryVersions(), tmp_path)
    monkeypatch.setattr(project.cst, "parse_module", logged)
    pooled = pool.check_paths(paths, options, jobs=2)
    parses = log.read_text().splitlines()
    models_line = repr(HELPERS["models.py"].splitlines()[-1])
    assert [line.split(" ", 1)[0] for line in parses if line.endswith(models_line)] == [
        str(os.getpid())]  # once, in this process, before the fork
    assert len({line.split(" ", 1)[0] for line in parses}) > 1  # the workers did parse the rest
    alone = pool.check_paths(paths, options, jobs=1)
    assert [(r.filename, r.errors, r.diagnostics) for r in pooled] == \
        [(r.filename, r.errors, r.diagnostics) for r in alone]
    # OPT003 (the model's `init` unfiltered) needs models.py's class: the lookup was served.
    assert sorted({d.code for r in alone for d in r.diagnostics}) == ["OPT003", "OPT020"]
