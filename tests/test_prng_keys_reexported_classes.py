"""OPT020 on a method given a key, called on an object of a class the file imports from a
package that re-exports it (issue #25, the whole-repository benchmark's gymnax `02_evolution`
notebook, cell 10:6: `from gymnax.experimental import RolloutWrapper`, whose `__init__.py` says
`RolloutWrapper = rollout.RolloutWrapper`; `manager.single_rollout(key, params)` splits the key,
and the next cell splits it again). The methods of the imported modules' classes stand in for
such a call, and a package's `__init__.py` defines none: the module it re-exports from does.
Both forms of re-export, by assignment and by import. Run with JAX: the second split raises."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import raises_key_reuse, run_optlint_in_process

ROLLOUT = """\
import jax


class Roller:
    def __init__(self, steps):
        self.steps = steps

    def single_rollout(self, key, params):
        key_reset, key_episode = jax.random.split(key)
        return params + jax.random.normal(key_episode, (self.steps,))
"""

BY_ASSIGNMENT = "from sim import rollout\n\nRoller = rollout.Roller\n"
BY_IMPORT = "from sim.rollout import Roller\n"

USE = """\
import jax
from sim import Roller

key = jax.random.key(0)
manager = Roller(3)
returns = manager.single_rollout(key, 1.0)
key, key_init = jax.random.split(key)
"""

SPLIT_FIRST = USE.replace("returns = manager.single_rollout(key, 1.0)\n",
                          "key, key_roll = jax.random.split(key)\n"
                          "returns = manager.single_rollout(key_roll, 1.0)\n")


def _lines(tmp_path: Path, init: str, use: str) -> list[int]:
    package = tmp_path / "sim"
    package.mkdir()
    (package / "__init__.py").write_text(init)
    (package / "rollout.py").write_text(ROLLOUT)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "sim"\n')
    (tmp_path / "examples").mkdir()
    (tmp_path / "examples" / "use.py").write_text(use)
    result = run_optlint_in_process("check", "examples/use.py", "--select", "OPT020",
                                    "--no-cache", "--isolated", "--output-format", "json",
                                    cwd=tmp_path)
    return sorted(f["line"] for f in json.loads(result.stdout))


@pytest.mark.parametrize("init", [BY_ASSIGNMENT, BY_IMPORT], ids=["assignment", "import"])
def test_a_method_of_a_reexported_class_consumes_its_key(tmp_path: Path, init: str) -> None:
    assert _lines(tmp_path, init, USE) == [7]


def test_a_split_before_the_call_is_silent(tmp_path: Path) -> None:
    assert _lines(tmp_path, BY_ASSIGNMENT, SPLIT_FIRST) == []


def test_jax_raises_at_the_second_split() -> None:
    program = ROLLOUT + USE.replace("from sim import Roller\n", "")
    assert raises_key_reuse(program)
