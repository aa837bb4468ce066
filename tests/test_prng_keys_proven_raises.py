"""OPT020 on code that cannot run to the second draw, for a reason read from the project's own
files (issue #25, klax scripts written against another version of their package): a script whose
top-level `from pkg import name` names something the project's `pkg` does not bind fails with
ImportError before any draw; a call of a project function given a keyword its `def` does not
accept fails with TypeError before the function draws. The look-alikes that run (the name is
bound, or is a submodule; the keyword is accepted, or `**kwargs` takes it; the package may bind
names unseen through a star import) are still found. Each script also runs with JAX: the silent
ones raise where the analysis says, the found ones reach the second draw."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import finding_line
from conftest import run_optlint_in_process as run_optlint

PACKAGE = '''\
import jax

from pkg import tools as tools


def fit(data, *, steps=1, key):
    return data + jax.random.normal(key, (steps,))


def fit_any(data, *, key, **options):
    return data + jax.random.normal(key, (1,))
'''

TOOLS = '''\
def scale(x):
    return 2 * x
'''

# (script, the lines OPT020 reports, the error running it raises; "" runs to the end)
SCRIPTS = {
    "missing_name.py": ('''\
import jax

from pkg import HistoryCallback, fit

key = jax.random.key(0)
first = fit(1.0, key=key)
second = fit(2.0, key=key)
print(first + second)
''', [], "ImportError"),
    "bound_names.py": ('''\
import jax

from pkg import fit, tools

key = jax.random.key(0)
first = fit(1.0, key=key)
second = fit(2.0, key=key)
print(tools.scale(first + second))
''', [7], ""),
    "rejected_keyword.py": ('''\
import jax

from pkg import fit

key = jax.random.key(0)
results = []
for steps in (1, 2):
    results.append(fit(1.0, steps=steps, logger=print, key=key))
first = fit(2.0, logger=print, key=key)
second = fit(3.0, key=key)
print(results, first, second)
''', [], "TypeError"),
    "accepted_keywords.py": ('''\
import jax

from pkg import fit, fit_any

key = jax.random.key(0)
first = fit_any(2.0, logger=print, key=key)
second = fit(3.0, steps=2, key=key)
print(first, second)
''', [7], ""),
}

STARRED = '''\
import jax

from pkg.tools import *  # noqa: F403


def fit(data, *, key):
    return data + jax.random.normal(key, (1,))
'''


def _project(tmp_path: Path, package: str = PACKAGE) -> None:
    (tmp_path / "pkg").mkdir(exist_ok=True)
    (tmp_path / "pkg" / "__init__.py").write_text(package)
    (tmp_path / "pkg" / "tools.py").write_text(TOOLS)
    (tmp_path / "scripts").mkdir(exist_ok=True)


def _lines(tmp_path: Path, name: str, source: str) -> list[int]:
    (tmp_path / "scripts" / name).write_text(source)
    result = run_optlint("check", f"scripts/{name}", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    return sorted(f["location"]["row"] if "location" in f else f["line"]
                  for f in json.loads(result.stdout))


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_what_cannot_run_is_no_reuse(tmp_path: Path, name: str) -> None:
    _project(tmp_path)
    source, expected, _ = SCRIPTS[name]
    assert _lines(tmp_path, name, source) == expected


def test_a_package_binding_names_unseen_proves_nothing(tmp_path: Path) -> None:
    _project(tmp_path, STARRED)
    source = SCRIPTS["missing_name.py"][0].replace("HistoryCallback", "scale")
    assert _lines(tmp_path, "starred.py", source) == [7]


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_the_scripts_when_run(tmp_path: Path, name: str) -> None:
    _project(tmp_path)
    source, _, error = SCRIPTS[name]
    (tmp_path / "scripts" / name).write_text(source)
    ran = subprocess.run([sys.executable, f"scripts/{name}"], cwd=tmp_path, text=True,
                         capture_output=True, env={"PYTHONPATH": str(tmp_path),
                                                   "JAX_PLATFORMS": "cpu"})
    if error:
        assert ran.returncode != 0 and f"{error}:" in ran.stderr
    else:
        assert ran.returncode == 0, ran.stderr


STDLIB_NAMED = '''\
import jax
from types import FrameType

from pkg import fit

key = jax.random.key(0)
first = fit(1.0, key=key)
second = fit(2.0, key=key)
print(first + second, FrameType)
'''


def test_a_project_module_named_like_the_standard_library_proves_nothing(tmp_path: Path) -> None:
    """A package with its own `types.py` (ksim): `from types import FrameType` inside it is the
    standard library's `types`, which binds the name; the reuse after it is still found."""
    _project(tmp_path)
    (tmp_path / "pkg" / "types.py").write_text("Frame = int\n")
    (tmp_path / "pkg" / "train.py").write_text(STDLIB_NAMED)
    result = run_optlint("check", "pkg/train.py", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    assert [finding_line(f) for f in json.loads(result.stdout)] == [8]
    ran = subprocess.run([sys.executable, "-m", "pkg.train"], cwd=tmp_path, text=True,
                         capture_output=True, env={"PYTHONPATH": str(tmp_path),
                                                   "JAX_PLATFORMS": "cpu"})
    assert ran.returncode == 0, ran.stderr
