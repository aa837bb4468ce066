"""OPT020 on a test written against an older version of its package (whole-repository set 2:
annotated-s4 `tests/test.py:15` and `:28`, labelled FP: `import s4` binds the package, whose
`from .s4 import *` gives no `convFromGen` (renamed `conv_from_gen`), so the test dies with
`AttributeError` before its first assertion and neither draw reaches a result). A module
attribute that no file of the project binds raises; what a function draws and only passes on
to names of its own before such a line reaches nothing, and a draw after it never runs. The
same test against the package's own name, or with the missing call inside `try`, or with a
draw printed before it, stays reported. Each script also runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import run_optlint_in_process as run_optlint

INIT = "from .core import *\n"

CORE = '''\
import jax.numpy as jnp


def discretize(b, c):
    out, vars = b @ c, None  # a local named like the builtin binds nothing unseen
    return out


def conv_from_gen(x):
    return jnp.fft.irfft(x)
'''

RENAMED = '''\
import jax
import jax.numpy as jnp

import pkg


def test_ssm():
    rng = jax.random.PRNGKey(0)
    b = jax.random.uniform(rng, (4, 1))
    c = jax.random.uniform(rng, (1, 4))
    ssm = pkg.discretize(b, c)
    out = pkg.convFromGen(ssm)
    assert bool(jnp.all(jnp.isfinite(out)))
    d = jax.random.uniform(rng, (4,))
    assert bool(jnp.all(d >= 0))


if __name__ == "__main__":
    test_ssm()
'''

SCRIPTS = {
    # script -> (source, lines reported, error the run ends with)
    "renamed.py": (RENAMED, [], "AttributeError"),
    "current.py": (RENAMED.replace("convFromGen", "conv_from_gen"), [10, 14], ""),
    "caught.py": (RENAMED.replace(
        "    out = pkg.convFromGen(ssm)\n    assert bool(jnp.all(jnp.isfinite(out)))\n",
        "    try:\n        out = pkg.convFromGen(ssm)\n    except AttributeError:\n"
        "        print(ssm)\n"), [10, 16], ""),
    "printed.py": (RENAMED.replace("    ssm = pkg.discretize(b, c)\n",
                                   "    ssm = pkg.discretize(b, c)\n    print(ssm)\n"), [10],
                   "AttributeError"),
}


def _project(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir(exist_ok=True)
    (tmp_path / "pkg" / "__init__.py").write_text(INIT)
    (tmp_path / "pkg" / "core.py").write_text(CORE)
    (tmp_path / "tests").mkdir(exist_ok=True)


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_what_a_missing_module_attribute_stops_is_no_reuse(tmp_path: Path, name: str) -> None:
    _project(tmp_path)
    source, expected, _ = SCRIPTS[name]
    (tmp_path / "tests" / name).write_text(source)
    result = run_optlint("check", f"tests/{name}", "--select", "OPT020", "--no-cache",
                         "--output-format", "json", cwd=tmp_path)
    lines = sorted(f["location"]["row"] if "location" in f else f["line"]
                   for f in json.loads(result.stdout))
    assert lines == expected


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_the_scripts_when_run(tmp_path: Path, name: str) -> None:
    _project(tmp_path)
    source, _, error = SCRIPTS[name]
    (tmp_path / "tests" / name).write_text(source)
    ran = subprocess.run([sys.executable, f"tests/{name}"], cwd=tmp_path, text=True,
                         capture_output=True, env={"PYTHONPATH": str(tmp_path),
                                                   "JAX_PLATFORMS": "cpu"})
    if error:
        assert ran.returncode != 0 and f"{error}:" in ran.stderr
    else:
        assert ran.returncode == 0, ran.stderr


def test_a_project_module_is_read_for_its_names_once_per_run(tmp_path: Path, monkeypatch) -> None:
    """Two test files of the project read `pkg` for a name it lacks: `pkg/__init__.py` and the
    `pkg/core.py` it star-imports are each walked for their names once in the run, not once
    per importing file (kept with the module's evaluator: `module_names.kept_bindings`)."""
    import libcst as cst

    from optlint.analysis import module_names

    walked: list[int] = []
    every_node = module_names._every_node

    def counted(node: cst.CSTNode):  # type: ignore[no-untyped-def]
        if isinstance(node, cst.Module):
            walked.append(id(node))
        return every_node(node)

    monkeypatch.setattr(module_names, "_every_node", counted)
    _project(tmp_path)
    for name in ("renamed.py", "renamed_again.py"):
        (tmp_path / "tests" / name).write_text(RENAMED)
    result = run_optlint("check", "tests", "--select", "OPT020", "--no-cache", "--jobs", "1",
                         "--output-format", "json", cwd=tmp_path)
    assert json.loads(result.stdout) == []
    assert len(walked) == len(set(walked)) == 2
