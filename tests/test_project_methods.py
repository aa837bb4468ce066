"""The method names the project's files define (`project_methods.py`), which the lookup of a
method of another file's class asks before evaluating a receiver (`key_foreign_methods.py`):
read from the texts, a superset of what the parsed classes define, and a dependency of the
cache (a file that comes to define the method changes the answer)."""

from __future__ import annotations

import json
from pathlib import Path

import libcst as cst
import pytest

from conftest import run_optlint_in_process
from optlint.analysis import key_foreign_methods
from optlint.analysis.project_methods import ProjectMethods, method_words

METHODS = """\
import jax


class A:
    def plain(self, x):
        return x

    @jax.jit
    def decorated(self, x):
        return x

    async def waited(self):
        pass

\tdef tabbed(self):
\t\tpass

    def \\
            continued(self):
        pass

    class Inner:
        def inner(self):
            pass


def module_level(x):
    def nested(y):
        return y
    return nested
"""


def test_every_method_a_class_defines_is_read_from_the_text() -> None:
    parsed = {node.name.value for cls in cst.parse_module(METHODS.replace("\t", "    ")).body
              if isinstance(cls, cst.ClassDef) for node in cls.body.body
              if isinstance(node, cst.FunctionDef)}
    read = {word.removeprefix("def:") for word in method_words(METHODS)}
    assert parsed <= read
    assert "module_level" not in read and "nested" in read  # a nested function widens it


def test_a_name_defined_only_here_is_defined_nowhere_else(tmp_path: Path) -> None:
    here, there = tmp_path / "a.py", tmp_path / "b.py"
    methods = ProjectMethods({here: "class A:\n    def run(self): pass\n",
                              there: "class B:\n    def step(self): pass\n"})
    assert not methods.defined_besides("run", here) and methods.defined_besides("run", there)
    assert methods.defined_besides("step", here) and not methods.defined_besides("append", None)


BEHAVIOR = """\
import jax
from flax import struct


class BehaviorModel:
    def {name}(self, state, obs):
        return jax.random.normal(state.rng_key, obs.shape)
"""
# `model` comes from the caller in `main.py`: `dream.py` imports nothing of `behavior.py`.
DREAM = """\
import jax


def dream(model, state, obs):
    a = model.sample_action(state, obs)
    b = model.sample_action(state, obs)
    return a + b
"""
MAIN = """\
import jax
from flax import struct

from behavior import BehaviorModel
from dream import dream


@struct.dataclass
class State:
    rng_key: jax.Array


dream(BehaviorModel(), State(rng_key=jax.random.key(0)), jax.numpy.zeros(3))
"""


def _dream_findings(root: Path, *extra: str) -> list[int]:
    result = run_optlint_in_process("check", ".", "--select", "OPT020", "--isolated",
                                    "--jobs", "1", "--output-format", "json", *extra, cwd=root)
    assert "internal error" not in result.stderr
    return [finding["line"] for finding in json.loads(result.stdout or "[]")
            if finding["filename"].endswith("dream.py")]


def _write(root: Path, name: str) -> None:
    (root / "behavior.py").write_text(BEHAVIOR.format(name=name))
    (root / "dream.py").write_text(DREAM)
    (root / "main.py").write_text(MAIN)


def test_the_method_found_through_a_caller_is_looked_up(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    _write(tmp_path, "sample_action")
    assert _dream_findings(tmp_path, "--no-cache") == [6]
    # Can fail: a gate that rejects every name loses the finding.
    monkeypatch.setattr(key_foreign_methods, "defined_elsewhere", lambda *_: False)
    assert _dream_findings(tmp_path, "--no-cache") == []


def test_a_file_coming_to_define_the_method_is_seen_by_the_cache(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.optlint]\n")
    _write(tmp_path, "other_name")
    assert _dream_findings(tmp_path) == []
    _write(tmp_path, "sample_action")  # dream.py unchanged, and it imports nothing of it
    assert _dream_findings(tmp_path) == [6]
