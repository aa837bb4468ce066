"""The results cache (optlint/cache.py) on real files on disk, through the CLI in-process.

Each test checks what a stale entry would get wrong: a finding that must appear or disappear
after another file changed, and that files nobody depends on are not analysed again.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, run_optlint_in_process as run_optlint
from optlint import cache

MODELS_WITH_FUNCTION = """\
from typing import Callable

import equinox as eqx
import jax


class Net(eqx.Module):
    weight: jax.Array
    activation: Callable

    def __init__(self, key):
        self.weight = jax.random.normal(key, (3,))
        self.activation = jax.nn.relu
"""
MODELS_ARRAYS_ONLY = """\
import equinox as eqx
import jax


class Net(eqx.Module):
    weight: jax.Array

    def __init__(self, key):
        self.weight = jax.random.normal(key, (3,))
"""
TRAIN = """\
import jax
import optax

from models import Net

model = Net(jax.random.PRNGKey(0))
opt_state = optax.adam(1e-3).init(model)
"""
HELPERS = """\
import optax


def init_state(model):
    return optax.adam(1e-3).init(model)
"""
CALLER_UNFILTERED = """\
import equinox as eqx
import jax

from helpers import init_state

state = init_state(eqx.nn.MLP(2, 1, 4, 1, key=jax.random.PRNGKey(0)))
"""
CALLER_FILTERED = """\
import equinox as eqx
import jax

from helpers import init_state

state = init_state(eqx.filter(eqx.nn.MLP(2, 1, 4, 1, key=jax.random.PRNGKey(0)), eqx.is_array))
"""
UNRELATED = "import optax\n\nopt = optax.sgd(0.1)\n"


def project(tmp_path: Path, files: dict[str, str]) -> Path:
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def check(root: Path, *extra: str) -> tuple[list[str], str]:
    done = run_optlint("check", ".", "--select", "OPT003", "-v", "--jobs", "1", *extra, cwd=root)
    assert done.returncode in (0, 1), done.stderr
    findings = sorted(line.split(" ", 2)[0] + " " + line.split(" ", 2)[1]
                      for line in done.stdout.splitlines() if ": OPT" in line)
    cache_line = next((line for line in done.stderr.splitlines() if line.startswith("cache:")), "")
    return findings, cache_line


def test_second_run_reads_every_file_from_the_cache(tmp_path: Path) -> None:
    root = project(tmp_path, {"models.py": MODELS_WITH_FUNCTION, "train.py": TRAIN,
                              "unrelated.py": UNRELATED})
    first, first_cache = check(root)
    assert first == ["train.py:7:35: OPT003"] and first_cache.startswith("cache: 0 of 3")
    second, second_cache = check(root)
    assert second == first and second_cache.startswith("cache: 3 of 3")
    assert (root / ".optlint_cache" / ".gitignore").read_text().strip().endswith("*")


def test_a_cached_finding_keeps_its_message_fix_and_fix_title(tmp_path: Path) -> None:
    root = project(tmp_path, {"models.py": MODELS_WITH_FUNCTION, "train.py": TRAIN})
    args = ("check", ".", "--select", "OPT003,OPT100", "--output-format", "json")
    (root / "unused.py").write_text("import optax  # noqa: OPT003\n")  # OPT100: another fix title
    fresh = run_optlint(*args, "--no-cache", cwd=root)
    run_optlint(*args, cwd=root)  # writes the entries
    cached = run_optlint(*args, "-v", cwd=root)
    assert "cache: 3 of 3" in cached.stderr
    findings = json.loads(fresh.stdout)
    assert {f["fix_title"] for f in findings} == {
        "Filter with `eqx.filter(..., eqx.is_array)`", "Remove the unused code"}
    assert json.loads(cached.stdout) == findings


def test_editing_an_imported_file_reanalyses_its_importers_only(tmp_path: Path) -> None:
    root = project(tmp_path, {"models.py": MODELS_WITH_FUNCTION, "train.py": TRAIN,
                              "unrelated.py": UNRELATED})
    assert check(root)[0] == ["train.py:7:35: OPT003"]
    (root / "models.py").write_text(MODELS_ARRAYS_ONLY)  # nothing left that init rejects
    findings, cache_line = check(root)
    assert findings == [] and cache_line.startswith("cache: 1 of 3")  # unrelated.py only


def test_editing_a_caller_reanalyses_the_called_function(tmp_path: Path) -> None:
    root = project(tmp_path, {"helpers.py": HELPERS, "main.py": CALLER_UNFILTERED,
                              "unrelated.py": UNRELATED})
    assert check(root)[0] == ["helpers.py:5:34: OPT003"]
    (root / "main.py").write_text(CALLER_FILTERED)  # helpers.py does not import main.py
    findings, cache_line = check(root)
    assert findings == [] and cache_line.startswith("cache: 1 of 3")


def test_a_new_caller_file_counts(tmp_path: Path) -> None:
    root = project(tmp_path, {"helpers.py": HELPERS, "unrelated.py": UNRELATED})
    assert check(root)[0] == []
    (root / "main.py").write_text(CALLER_UNFILTERED)
    assert check(root)[0] == ["helpers.py:5:34: OPT003"]


def test_corrupt_entries_are_ignored_and_rewritten(tmp_path: Path) -> None:
    root = project(tmp_path, {"models.py": MODELS_WITH_FUNCTION, "train.py": TRAIN})
    expected = check(root)[0]
    entries = list((root / ".optlint_cache").rglob("*.json"))
    assert len(entries) == 2
    for number, entry in enumerate(entries):
        entry.write_text(["{not json", '{"content": 1}'][number % 2])
    findings, cache_line = check(root)
    assert findings == expected and cache_line.startswith("cache: 0 of 2")
    assert check(root)[1].startswith("cache: 2 of 2")


def test_no_cache_and_cache_dir(tmp_path: Path) -> None:
    root = project(tmp_path, {"train.py": TRAIN, "models.py": MODELS_WITH_FUNCTION})
    check(root, "--no-cache")
    assert not (root / ".optlint_cache").exists()
    (root / "pyproject.toml").write_text('[tool.optlint]\ncache-dir = "build/lint-cache"\n')
    check(root)
    assert list((root / "build" / "lint-cache").rglob("*.json"))
    assert not (root / ".optlint_cache").exists()


def test_settings_are_part_of_the_key(tmp_path: Path) -> None:
    root = project(tmp_path, {"train.py": TRAIN, "models.py": MODELS_WITH_FUNCTION})
    assert check(root)[0] == ["train.py:7:35: OPT003"]
    done = run_optlint("check", ".", "--select", "OPT001", cwd=root)
    assert done.returncode == 0, done.stdout  # not the OPT003 result read back


def test_two_runs_at_once(tmp_path: Path) -> None:
    """Two processes writing the same entries: both right, and the entries readable after."""
    files = {"models.py": MODELS_WITH_FUNCTION, "train.py": TRAIN}
    files.update({f"copy{n}.py": TRAIN for n in range(6)})
    root = project(tmp_path, files)
    command = [sys.executable, "-m", "optlint", "check", ".", "--select", "OPT003", "-q"]
    runs = [subprocess.Popen(command, cwd=root, stdout=subprocess.PIPE, text=True,
                             env={"PYTHONPATH": str(REPO), "PATH": ""}) for _ in range(2)]
    outputs = [run.communicate(timeout=120)[0] for run in runs]
    assert [run.returncode for run in runs] == [1, 1]
    assert outputs[0] == outputs[1] and outputs[0].count("OPT003") == 7
    assert check(root)[1].startswith("cache: 8 of 8")


def test_fix_does_not_use_the_cache(tmp_path: Path) -> None:
    root = project(tmp_path, {"train.py": TRAIN, "models.py": MODELS_WITH_FUNCTION})
    check(root)
    done = run_optlint("check", ".", "--select", "OPT003", "--fix", cwd=root)
    assert done.returncode == 0, done.stdout
    assert "eqx.filter" in (root / "train.py").read_text()
    assert check(root)[0] == []  # the fixed file is a new content: analysed again


def test_an_edit_reaches_importers_through_an_import_cycle(tmp_path: Path) -> None:
    """a.py and b.py import each other; b.py imports models.py. Editing models.py must
    re-analyse a.py, which reaches it only through the cycle."""
    root = project(tmp_path, {
        "models.py": MODELS_WITH_FUNCTION,
        "b.py": "import a\nfrom models import Net\n",
        "a.py": TRAIN.replace("from models import Net", "import b\nfrom b import Net"),
    })
    assert check(root)[0] == ["a.py:8:35: OPT003"]
    (root / "models.py").write_text(MODELS_ARRAYS_ONLY)
    assert check(root)[0] == []


def _age(root: Path) -> None:
    """Files last written an hour ago: their stamps are settled (see cache._SETTLED_NS)."""
    for path in root.glob("*.py"):
        os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns - 3600 * 10**9))


def test_a_warm_run_reads_no_unchanged_file(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path, {"models.py": MODELS_WITH_FUNCTION, "train.py": TRAIN,
                              "unrelated.py": UNRELATED})
    _age(root)
    expected = check(root)[0]
    read: list[Path] = []
    original = cache.read_bytes

    def reading(path: Path) -> bytes:
        read.append(path)
        return original(path)

    monkeypatch.setattr(cache, "read_bytes", reading)
    findings, cache_line = check(root)
    assert findings == expected == ["train.py:7:35: OPT003"]
    assert cache_line.startswith("cache: 3 of 3") and read == []


def test_an_edit_keeping_size_and_mtime_is_seen(tmp_path: Path) -> None:
    root = project(tmp_path, {"models.py": MODELS_WITH_FUNCTION, "train.py": TRAIN,
                              "unrelated.py": UNRELATED})
    _age(root)
    check(root)
    unrelated = root / "unrelated.py"
    before = unrelated.stat()
    unrelated.write_text(UNRELATED.replace("0.1", "0.2"))  # the same size
    os.utime(unrelated, ns=(before.st_atime_ns, before.st_mtime_ns))  # and mtime set back
    assert check(root)[1].startswith("cache: 2 of 3")  # its ctime tells


def test_a_corrupt_stamp_file_costs_a_read_not_a_result(tmp_path: Path) -> None:
    root = project(tmp_path, {"models.py": MODELS_WITH_FUNCTION, "train.py": TRAIN})
    _age(root)
    expected = check(root)[0]
    for stamps in (root / ".optlint_cache").rglob("file-stamps"):
        stamps.write_text('{"' + str(root / "train.py") + '": [1, 2]}')
    assert check(root) == (expected, "cache: 2 of 2 files unchanged since the last run")


def test_an_old_looking_edit_of_an_imported_file_is_seen(tmp_path: Path) -> None:
    # Every stamp settled: results come through the project's snapshot, which this edit changes.
    root = project(tmp_path, {"models.py": MODELS_WITH_FUNCTION, "train.py": TRAIN,
                              "unrelated.py": UNRELATED})
    _age(root)
    assert check(root)[0] == ["train.py:7:35: OPT003"]
    assert check(root)[1].startswith("cache: 3 of 3")
    (root / "models.py").write_text(MODELS_ARRAYS_ONLY)
    _age(root)
    findings, cache_line = check(root)
    assert findings == [] and cache_line.startswith("cache: 1 of 3")
