"""A pool's workers own fixed shards of the files, planned from the import graph
(optlint/pool_shards.py): files that import one another are checked by one worker, which parses
what they look into once, and the findings are those of one process."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from optlint import pool
from optlint.config import Settings
from optlint.import_graph import ImportGraph
from optlint.lint_order import check_plan
from optlint.lint_types import LintOptions
from optlint.pool_shards import plan_shards
from optlint.selection import Selection
from optlint.versions import LibraryVersions

# Two projects in one tree: the trainers of each build the model of their own models file (an
# Equinox module, looked up by each trainer).
MODELS = "import equinox as eqx\n\n\nclass Net{name}(eqx.Module):\n    size: int\n"
TRAINER = ("import jax\nimport optax\nfrom models_{module} import Net{name}\n\n"
           "model = Net{name}(4)\nopt = optax.adam(1e-3)\nstate = opt.init(model)\n"
           "key = jax.random.PRNGKey(0)\na = jax.random.normal(key)\nb = jax.random.normal(key)\n")


def write(root: Path) -> list[Path]:
    for name in ("a", "b"):
        (root / f"models_{name}.py").write_text(MODELS.format(name=name.upper()))
        for number in range(3):
            (root / f"train_{name}{number}.py").write_text(
                TRAINER.format(module=name, name=name.upper()) + "\n" * number)
    return sorted(root.glob("*.py"))


def test_files_that_import_one_another_share_a_shard(tmp_path: Path) -> None:
    paths = write(tmp_path)
    graph = ImportGraph(tmp_path)
    order, _ = check_plan(paths, tmp_path, graph=graph)
    shards = plan_shards(order, graph, 2)
    assert sorted(sorted(path.name for path in shard) for shard in shards) == [
        ["models_a.py", "train_a0.py", "train_a1.py", "train_a2.py"],
        ["models_b.py", "train_b0.py", "train_b1.py", "train_b2.py"]]
    for shard in shards:  # each in the check order
        assert shard == [path for path in order if path in shard]


def test_files_that_share_nothing_are_balanced_by_size(tmp_path: Path) -> None:
    sizes = [9, 1, 1, 1, 1, 1, 1, 1, 1, 1]  # thousands of bytes: one large file, nine small
    paths = []
    for number, size in enumerate(sizes):
        path = tmp_path / f"f{number}.py"
        path.write_text("import optax\n" + "x = 1\n" * (size * 1000 // 6))
        paths.append(path)
    shards = plan_shards(paths, ImportGraph(tmp_path), 2)
    assert sorted(sorted(path.name for path in shard) for shard in shards) == [
        ["f0.py"], [f"f{number}.py" for number in range(1, 10)]]


def test_one_file_is_one_shard_and_every_file_is_in_one(tmp_path: Path) -> None:
    paths = write(tmp_path)
    graph = ImportGraph(tmp_path)
    assert plan_shards(paths[:1], graph, 2) == [paths[:1]]
    shards = plan_shards(paths, graph, 3)
    assert sorted(path for shard in shards for path in shard) == paths
    assert all(shards)


def test_each_worker_parses_its_shards_lookups_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import libcst as cst

    import optlint.parsing as parsing

    monkeypatch.setattr(pool, "_start_method", lambda: "fork")  # workers inherit the patches
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    paths = write(tmp_path)
    log = tmp_path.parent / f"{tmp_path.name}-parses.log"
    original = parsing._parse_text  # every parse optlint makes

    def logged(text: str) -> cst.Module:  # every process appends, the parent and the workers
        with log.open("a") as stream:
            stream.write(f"{os.getpid()} {text.splitlines()[3]!r}\n")
        return original(text)

    options = LintOptions(Selection.from_settings(Settings(project_root=tmp_path)),
                          LibraryVersions(), tmp_path)
    monkeypatch.setattr(parsing, "_parse_text", logged)
    pooled = pool.check_paths(paths, options, jobs=2)
    parses = [line.split(" ", 1) for line in log.read_text().splitlines()]
    processes = {process for process, _ in parses}
    assert len(processes) == 2 and str(os.getpid()) not in processes  # the workers, no parent
    for name in ("A", "B"):
        models = repr(MODELS.format(name=name).splitlines()[3])
        assert len([process for process, line in parses if line == models]) == 1
    alone = pool.check_paths(paths, options, jobs=1)
    assert [(r.filename, r.errors, r.diagnostics) for r in pooled] == \
        [(r.filename, r.errors, r.diagnostics) for r in alone]
    # OPT003 (the model's `init` unfiltered) needs the models file's class: the lookup was made.
    assert sorted({d.code for r in alone for d in r.diagnostics}) == ["OPT003", "OPT020"]
